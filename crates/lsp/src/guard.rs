//! The panic guard: a bug in one request must answer that request with an
//! error, never take the server down.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tower_lsp_server::jsonrpc::{Error, Result};

/// Runs `f`, turning a panic into its message.
pub fn guarded<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| message(&*payload))
}

fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Runs an analysis on a snapshot: `None` when a newer text cancelled it
/// (salsa unwinds with [`salsa::Cancelled`]), else its answer or the
/// message of its panic.
pub fn computed<T>(f: impl FnOnce() -> T) -> Option<std::result::Result<T, String>> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(answer) => Some(Ok(answer)),
        Err(payload) if payload.is::<salsa::Cancelled>() => None,
        Err(payload) => Some(Err(message(&*payload))),
    }
}

/// An "internal error" response carrying a panic's message.
pub fn internal(msg: String) -> Error {
    Error {
        message: format!("internal error: {msg}").into(),
        ..Error::internal_error()
    }
}

/// Runs a request handler. A panic becomes an internal-error response; a
/// snapshot cancelled because the text changed under it (salsa unwinds
/// with [`salsa::Cancelled`]) becomes "content modified", which clients
/// answer by asking again.
pub fn request<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(answer) => answer,
        Err(payload) if payload.is::<salsa::Cancelled>() => Err(Error::content_modified()),
        Err(payload) => Err(internal(message(&*payload))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(guarded(|| 7), Ok(7));
        let n = 3;
        assert_eq!(
            guarded(|| -> i32 { panic!("bad input {n}") }),
            Err("bad input 3".to_string())
        );
        assert_eq!(
            guarded(|| -> i32 { panic!("static") }),
            Err("static".to_string())
        );
    }

    #[test]
    fn a_panicking_request_gets_an_error_answer() {
        assert_eq!(request(|| Ok(5)), Ok(5));
        let e = request(|| -> Result<i32> { panic!("boom") }).unwrap_err();
        assert_eq!(e.code, tower_lsp_server::jsonrpc::ErrorCode::InternalError);
        assert_eq!(e.message, "internal error: boom");
        let e = request(|| -> Result<i32> {
            std::panic::resume_unwind(Box::new(salsa::Cancelled::PendingWrite))
        })
        .unwrap_err();
        assert_eq!(
            e.code,
            tower_lsp_server::jsonrpc::ErrorCode::ContentModified
        );
    }
}
