//! The TCP connections between the processes, made before timely starts
//! so that a peer that never comes is a timeout, not a wait forever (timely's
//! own `create_sockets` retries without end and prints to stdout).
//!
//! As timely does, process `i` connects to every process before it and
//! accepts a connection from every process after it; each connection
//! starts with a greeting naming the protocol and the connecting process.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// The greeting's magic and version: a stranger on the port (or another
/// build of zeno) is refused rather than fed to timely.
const GREETING: &[u8; 8] = b"zeno-d\x00\x01";

/// The connections of process `me` to every other process of `addresses`
/// (`None` at `me`), made within `timeout`.
pub fn sockets(
    addresses: &[String],
    me: usize,
    timeout: Duration,
) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + timeout;
    let listener = TcpListener::bind(&addresses[me])
        .map_err(|e| format!("cannot listen on {} (process {me}): {e}", addresses[me]))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {}: {e}", addresses[me]))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    // Connect to the earlier processes, retrying while they start.
    for (i, address) in addresses.iter().enumerate().take(me) {
        let stream = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => {
                    return Err(format!(
                        "process {i} ({address}) did not accept a connection within {} s: {e}",
                        timeout.as_secs_f64()
                    ));
                }
            }
        };
        let mut stream = stream;
        let mut greet = || -> std::io::Result<()> {
            stream.set_nodelay(true)?;
            stream.write_all(GREETING)?;
            stream.write_all(&(me as u64).to_le_bytes())
        };
        greet().map_err(|e| format!("connection to process {i} ({address}): {e}"))?;
        sockets[i] = Some(stream);
    }
    // Accept the later ones.
    let later = addresses.len() - me - 1;
    let mut accepted = 0;
    while accepted < later {
        match listener.accept() {
            Ok((mut stream, from)) => {
                let i = greeting(&mut stream, deadline)
                    .map_err(|e| format!("a connection from {from}: {e}"))?;
                if i <= me || i >= addresses.len() || sockets[i].is_some() {
                    return Err(format!(
                        "a connection from {from} says it is process {i}, which is not expected here"
                    ));
                }
                sockets[i] = Some(stream);
                accepted += 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing: Vec<String> = (me + 1..addresses.len())
                        .filter(|&i| sockets[i].is_none())
                        .map(|i| format!("{i} ({})", addresses[i]))
                        .collect();
                    return Err(format!(
                        "process {} did not connect within {} s",
                        missing.join(", process "),
                        timeout.as_secs_f64()
                    ));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("accepting on {}: {e}", addresses[me])),
        }
    }
    for s in sockets.iter().flatten() {
        s.set_nonblocking(false).map_err(|e| e.to_string())?;
        s.set_read_timeout(None).map_err(|e| e.to_string())?;
    }
    Ok(sockets)
}

/// Reads a connection's greeting: the connecting process's index.
fn greeting(stream: &mut TcpStream, deadline: Instant) -> Result<usize, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100));
    stream
        .set_read_timeout(Some(left))
        .map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut magic = [0u8; 8];
    stream
        .read_exact(&mut magic)
        .map_err(|e| format!("no greeting: {e}"))?;
    if &magic != GREETING {
        return Err("not a zeno process of this version".to_string());
    }
    let mut index = [0u8; 8];
    stream
        .read_exact(&mut index)
        .map_err(|e| format!("no greeting: {e}"))?;
    usize::try_from(u64::from_le_bytes(index)).map_err(|e| e.to_string())
}
