//! A tiny static HTTP/1.1 server on 127.0.0.1 for end-to-end tests: serves an in-memory
//! file tree over plain HTTP or TLS (a CA and a certificate for `127.0.0.1`/`localhost`
//! generated per server), records every request with its headers, and can be told to fail,
//! stall or hang on chosen paths.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How the server misbehaves for one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Answer with this status and an empty body.
    Status(u16),
    /// Fail this many times with 503, then serve normally (retries must recover).
    FailTimes(usize),
    /// Close the connection after sending half the body.
    Truncate,
    /// Send the status line and headers (with the full `Content-Length`), then nothing.
    Stall,
    /// Read the request and never answer.
    Hang,
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The path, without the query string.
    pub path: String,
    /// Header names (lower-case) and values, in order.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct State {
    files: BTreeMap<String, (Vec<u8>, String)>,
    faults: BTreeMap<String, Fault>,
    log: Vec<Request>,
}

/// The longest a stalled or hanging answer holds its connection.
const HOLD_LIMIT: Duration = Duration::from_secs(60);

/// A running server; stops when dropped.
pub struct StaticServer {
    port: u16,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    hits: Arc<AtomicUsize>,
    ca_pem: Option<String>,
}

/// The certificate material of a TLS server.
struct Tls {
    config: Arc<rustls::ServerConfig>,
    ca_pem: String,
}

/// A CA and a leaf certificate it signed for `127.0.0.1` and `localhost`: trusting the CA
/// works for rustls/webpki and Go alike (a self-signed leaf that is also a CA may be refused).
pub struct LoopbackCerts {
    /// The CA certificate, PEM (what clients trust, e.g. through `SSL_CERT_FILE`).
    pub ca_pem: String,
    /// The CA certificate, DER.
    pub ca_der: Vec<u8>,
    /// The leaf certificate, PEM.
    pub leaf_pem: String,
    /// The leaf certificate, DER.
    pub leaf_der: Vec<u8>,
    /// The leaf's private key, PKCS#8 PEM.
    pub leaf_key_pem: String,
    /// The leaf's private key, PKCS#8 DER.
    pub leaf_key_der: Vec<u8>,
}

/// Generates fresh [`LoopbackCerts`].
pub fn loopback_certs() -> LoopbackCerts {
    use rcgen::{
        BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair,
        KeyUsagePurpose, SanType,
    };
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "tflock test CA");
    ca_params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().expect("CA key"))
        .expect("CA certificate");
    let mut leaf = CertificateParams::new(vec!["localhost".to_string()]).expect("leaf params");
    leaf.subject_alt_names
        .push(SanType::IpAddress(std::net::IpAddr::V4(
            std::net::Ipv4Addr::LOCALHOST,
        )));
    leaf.distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let leaf_key = KeyPair::generate().expect("leaf key");
    let leaf_cert = leaf.signed_by(&leaf_key, &ca).expect("leaf certificate");
    LoopbackCerts {
        ca_pem: ca.pem(),
        ca_der: ca.der().to_vec(),
        leaf_pem: leaf_cert.pem(),
        leaf_der: leaf_cert.der().to_vec(),
        leaf_key_pem: leaf_key.serialize_pem(),
        leaf_key_der: leaf_key.serialize_der(),
    }
}

fn make_tls() -> Tls {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    let certs = loopback_certs();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certs.leaf_key_der));
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("protocol versions")
    .with_no_client_auth()
    .with_single_cert(
        vec![
            CertificateDer::from(certs.leaf_der),
            CertificateDer::from(certs.ca_der),
        ],
        key,
    )
    .expect("server certificate");
    Tls {
        config: Arc::new(config),
        ca_pem: certs.ca_pem,
    }
}

impl StaticServer {
    /// Starts serving `files` (path → (body, content type)) over plain HTTP.
    pub fn start(files: BTreeMap<String, (Vec<u8>, String)>) -> StaticServer {
        StaticServer::launch(files, None)
    }

    /// Starts serving `files` over HTTPS with a freshly generated CA; clients must trust
    /// [`StaticServer::ca_pem`] (e.g. through `SSL_CERT_FILE`).
    pub fn start_tls(files: BTreeMap<String, (Vec<u8>, String)>) -> StaticServer {
        StaticServer::launch(files, Some(make_tls()))
    }

    fn launch(files: BTreeMap<String, (Vec<u8>, String)>, tls: Option<Tls>) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("local addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let state = Arc::new(Mutex::new(State {
            files,
            ..State::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let hits = Arc::new(AtomicUsize::new(0));
        let ca_pem = tls.as_ref().map(|t| t.ca_pem.clone());
        let tls_config = tls.map(|t| t.config);
        let (st, sp, h) = (state.clone(), stop.clone(), hits.clone());
        thread::spawn(move || {
            while !sp.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        // Responses go out as soon as they are written, as from a real server.
                        let _ = stream.set_nodelay(true);
                        let st = st.clone();
                        let sp = sp.clone();
                        let tls_config = tls_config.clone();
                        h.fetch_add(1, Ordering::Relaxed);
                        thread::spawn(move || {
                            let _ = accept(stream, tls_config, &st, &sp);
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
            ca_pem,
        }
    }

    /// `http://127.0.0.1:<port>` (or `https://` for a TLS server).
    pub fn base_url(&self) -> String {
        let scheme = if self.ca_pem.is_some() {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://127.0.0.1:{}", self.port)
    }

    /// `127.0.0.1:<port>`.
    pub fn authority(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The PEM certificate of the CA that issued a TLS server's certificate.
    pub fn ca_pem(&self) -> Option<&str> {
        self.ca_pem.as_deref()
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
        self.request_log().into_iter().map(|r| r.path).collect()
    }

    /// Every request so far with its headers, in order.
    pub fn request_log(&self) -> Vec<Request> {
        self.state.lock().map(|s| s.log.clone()).unwrap_or_default()
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

fn accept(
    stream: TcpStream,
    tls: Option<Arc<rustls::ServerConfig>>,
    state: &Mutex<State>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    match tls {
        None => serve(stream, state, stop),
        Some(config) => {
            let conn = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
            serve(rustls::StreamOwned::new(conn, stream), state, stop)
        }
    }
}

/// Holds a connection open without answering until the server stops or the limit passes.
fn hold(stop: &AtomicBool) {
    let start = Instant::now();
    while !stop.load(Ordering::Relaxed) && start.elapsed() < HOLD_LIMIT {
        thread::sleep(Duration::from_millis(20));
    }
}

fn serve<S: Read + Write>(
    stream: S,
    state: &Mutex<State>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let mut keep_alive = true;
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
                break;
            }
            if let Some((k, v)) = header.split_once(':') {
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
                if k == "connection" && v.eq_ignore_ascii_case("close") {
                    keep_alive = false;
                }
                headers.push((k, v));
            }
        }
        // A HEAD answer has the headers of a GET and no body (Go's getter asks HEAD first).
        let head = request_line.starts_with("HEAD ");
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("/")
            .split('?')
            .next()
            .unwrap_or("/")
            .to_string();
        let (status, body, ctype, fault) = {
            let mut s = state
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?;
            s.log.push(Request {
                path: path.clone(),
                headers,
            });
            let fault = s.faults.get(&path).cloned();
            match fault {
                Some(Fault::Status(code)) => (code, Vec::new(), "text/plain".to_string(), None),
                Some(Fault::FailTimes(n)) if n > 0 => {
                    s.faults.insert(path.clone(), Fault::FailTimes(n - 1));
                    (503, Vec::new(), "text/plain".to_string(), None)
                }
                other => match s.files.get(&path) {
                    Some((b, t)) => (200, b.clone(), t.clone(), other),
                    None => (404, b"not found".to_vec(), "text/plain".to_string(), None),
                },
            }
        };
        if fault == Some(Fault::Hang) {
            hold(stop);
            return Ok(());
        }
        let reason = match status {
            200 => "OK",
            404 => "Not Found",
            401 => "Unauthorized",
            403 => "Forbidden",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "Status",
        };
        let stream = reader.get_mut();
        // One write for the whole head: written piece by piece, Nagle's algorithm and the
        // client's delayed ACK held every response back ~40 ms.
        let head_text = format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head_text.as_bytes())?;
        match fault {
            Some(Fault::Stall) => {
                stream.flush()?;
                hold(stop);
                return Ok(());
            }
            Some(Fault::Truncate) => {
                stream.write_all(&body[..body.len() / 2])?;
                stream.flush()?;
                return Ok(());
            }
            _ => {}
        }
        if !head {
            stream.write_all(&body)?;
        }
        stream.flush()?;
        if !keep_alive {
            return Ok(());
        }
    }
}
