//! Messages take effect in the order the client sent them.
//!
//! `tower-lsp-server` runs the handlers of up to four messages at once, so
//! `didOpen` followed at once by a request about the document (which is what
//! editors do) could be answered "the document is not open", and `didClose`
//! then `didOpen` of the same document could be applied the other way round
//! and leave it closed. This layer, around the service, fixes the order the
//! protocol implies: notifications run one after the other in arrival
//! order, and a request runs only after every notification that arrived
//! before it has been handled. Requests still run concurrently with each
//! other and with later notifications (a long request does not hold up
//! edits).
//!
//! It cannot deadlock on the server's concurrency limit: messages enter the
//! server's buffer in arrival order and leave it only when done, so the
//! earliest unfinished notification is always among those running.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::sync::watch;
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_service::Service;

pub struct Ordered<S> {
    inner: S,
    /// Notifications that arrived so far.
    arrived: u64,
    /// Notifications handled so far.
    handled: Arc<watch::Sender<u64>>,
}

impl<S> Ordered<S> {
    pub fn new(inner: S) -> Ordered<S> {
        Ordered {
            inner,
            arrived: 0,
            handled: Arc::new(watch::Sender::new(0)),
        }
    }
}

impl<S> Service<Request> for Ordered<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Option<Response>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    /// Called in arrival order; the handler itself runs when the returned
    /// future is polled, after the notifications before it.
    fn call(&mut self, req: Request) -> Self::Future {
        let notification = req.id().is_none();
        let before = self.arrived;
        if notification {
            self.arrived += 1;
        }
        let handler = self.inner.call(req);
        let mut handled = self.handled.subscribe();
        let done = self.handled.clone();
        Box::pin(async move {
            // The sender lives in `done`, so waiting cannot fail.
            let _ = handled.wait_for(|&n| n >= before).await;
            let out = handler.await;
            if notification {
                done.send_modify(|n| *n += 1);
            }
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Records when each message's handler ran; the first notification
    /// takes a while, so without ordering the others would overtake it.
    struct Recorder(Arc<Mutex<Vec<String>>>);

    impl Service<Request> for Recorder {
        type Response = Option<Response>;
        type Error = ();
        type Future = Pin<Box<dyn Future<Output = Result<Option<Response>, ()>> + Send>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, req: Request) -> Self::Future {
            let log = self.0.clone();
            Box::pin(async move {
                if req.method() == "slow" {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                log.lock().unwrap().push(req.method().to_string());
                Ok(None)
            })
        }
    }

    #[tokio::test]
    async fn requests_wait_for_earlier_notifications() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut s = Ordered::new(Recorder(log.clone()));
        let slow = s.call(Request::build("slow").finish());
        let note = s.call(Request::build("note").finish());
        let request = s.call(Request::build("request").id(1).finish());
        // Run them all at once, the later ones polled first.
        let (r, n, w) = tokio::join!(request, note, slow);
        assert!(r.is_ok() && n.is_ok() && w.is_ok());
        assert_eq!(*log.lock().unwrap(), ["slow", "note", "request"]);
    }
}
