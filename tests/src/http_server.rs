//! A tiny static HTTP/1.1 server on 127.0.0.1 for end-to-end tests: serves an in-memory
//! file tree, counts requests, and can be told to fail or stall on chosen paths.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How the server misbehaves for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Answer with this status and an empty body.
    Status(u16),
    /// Fail this many times with 503, then serve normally (retries must recover).
    FailTimes(usize),
    /// Close the connection after sending half the body.
    Truncate,
}

#[derive(Default)]
struct State {
    files: BTreeMap<String, (Vec<u8>, String)>,
    faults: BTreeMap<String, Fault>,
    requests: Vec<String>,
}

/// A running server; stops when dropped.
pub struct StaticServer {
    port: u16,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    hits: Arc<AtomicUsize>,
}

impl StaticServer {
    /// Starts serving `files` (path → (body, content type)).
    pub fn start(files: BTreeMap<String, (Vec<u8>, String)>) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("local addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let state = Arc::new(Mutex::new(State {
            files,
            ..State::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let hits = Arc::new(AtomicUsize::new(0));
        let (st, sp, h) = (state.clone(), stop.clone(), hits.clone());
        thread::spawn(move || {
            while !sp.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let st = st.clone();
                        h.fetch_add(1, Ordering::Relaxed);
                        thread::spawn(move || {
                            let _ = serve(stream, &st);
                        });
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        StaticServer {
            port,
            state,
            stop,
            hits,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Makes `path` misbehave.
    pub fn set_fault(&self, path: &str, fault: Fault) {
        if let Ok(mut s) = self.state.lock() {
            s.faults.insert(path.to_string(), fault);
        }
    }

    /// Replaces (or adds) a file.
    pub fn put(&self, path: &str, body: Vec<u8>, content_type: &str) {
        if let Ok(mut s) = self.state.lock() {
            s.files
                .insert(path.to_string(), (body, content_type.to_string()));
        }
    }

    /// Every request path served so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.state
            .lock()
            .map(|s| s.requests.clone())
            .unwrap_or_default()
    }

    /// Number of connections accepted.
    pub fn connections(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn serve(mut stream: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    loop {
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut keep_alive = true;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
                break;
            }
            if header.to_ascii_lowercase().starts_with("connection: close") {
                keep_alive = false;
            }
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .split('?')
            .next()
            .unwrap_or("/")
            .to_string();
        let (status, body, ctype, truncate) = {
            let mut s = state
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?;
            s.requests.push(path.clone());
            let fault = s.faults.get(&path).cloned();
            match fault {
                Some(Fault::Status(code)) => (code, Vec::new(), "text/plain".to_string(), false),
                Some(Fault::FailTimes(n)) if n > 0 => {
                    s.faults.insert(path.clone(), Fault::FailTimes(n - 1));
                    (503, Vec::new(), "text/plain".to_string(), false)
                }
                other => match s.files.get(&path) {
                    Some((b, t)) => (200, b.clone(), t.clone(), other == Some(Fault::Truncate)),
                    None => (404, b"not found".to_vec(), "text/plain".to_string(), false),
                },
            }
        };
        let reason = match status {
            200 => "OK",
            404 => "Not Found",
            401 => "Unauthorized",
            403 => "Forbidden",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "Status",
        };
        write!(
            stream,
            "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )?;
        if truncate {
            stream.write_all(&body[..body.len() / 2])?;
            return Ok(());
        }
        stream.write_all(&body)?;
        stream.flush()?;
        if !keep_alive {
            return Ok(());
        }
    }
}
