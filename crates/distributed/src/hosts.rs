//! The host file of `--hosts`: one `host:port` per line, as timely's `-h`
//! file; blank lines and `#` comments are skipped.

use std::net::ToSocketAddrs;

/// A line of the host file that is no `host:port`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct HostsError {
    /// 1-based.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The addresses in `text`, in order (process `i` is the `i`th).
pub fn parse(text: &str) -> Result<Vec<String>, HostsError> {
    let mut addresses = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let entry = raw.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let bad = |message: String| HostsError {
            line: i + 1,
            message,
        };
        let Some((host, port)) = entry.rsplit_once(':') else {
            return Err(bad(format!("`{entry}` is not `host:port`")));
        };
        if host.is_empty() {
            return Err(bad(format!("`{entry}` names no host")));
        }
        if port.parse::<u16>().map_or(true, |p| p == 0) {
            return Err(bad(format!(
                "`{port}` in `{entry}` is not a port (1 to 65535)"
            )));
        }
        if entry.split_whitespace().count() > 1 {
            return Err(bad(format!("`{entry}`: one `host:port` a line")));
        }
        if addresses.iter().any(|a| a == entry) {
            return Err(bad(format!("`{entry}` is listed twice")));
        }
        addresses.push(entry.to_string());
    }
    if addresses.is_empty() {
        return Err(HostsError {
            line: text.lines().count().max(1),
            message: "no `host:port` in the file".to_string(),
        });
    }
    Ok(addresses)
}

/// Whether `address` resolves (a typo in a host name is found before
/// waiting for it).
pub fn resolves(address: &str) -> Result<(), String> {
    match address.to_socket_addrs() {
        Ok(mut addrs) => match addrs.next() {
            Some(_) => Ok(()),
            None => Err(format!("`{address}` resolves to no address")),
        },
        Err(e) => Err(format!("`{address}`: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_errors() {
        assert_eq!(
            parse("# two hosts\nlocalhost:2101\n\n  10.0.0.2:2101  # the second\n"),
            Ok(vec![
                "localhost:2101".to_string(),
                "10.0.0.2:2101".to_string()
            ])
        );
        let err = |text: &str| parse(text).unwrap_err();
        assert_eq!(err("localhost:1\nlocalhost\n").line, 2);
        assert!(err("localhost\n").message.contains("not `host:port`"));
        assert!(err("a:0\n").message.contains("not a port"));
        assert!(err("a:65536\n").message.contains("not a port"));
        assert!(err(":80\n").message.contains("no host"));
        assert!(err("a:1\na:1\n").message.contains("twice"));
        assert!(err("a b:1\n").message.contains("one `host:port`"));
        assert_eq!(err("\n# nothing\n").message, "no `host:port` in the file");
    }
}
