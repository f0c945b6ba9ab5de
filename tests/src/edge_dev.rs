//! The edge mirror Worker (`worker/`) served locally by `worker/dev.mjs` (workerd through
//! Miniflare, in-memory R2 and queue), for integration tests that talk to it over HTTP(S) as
//! Terraform and the CLI would. Needs the built Worker and the npm tools (`cargo xtask
//! worker-test` makes both).

use crate::http_server::loopback_certs;
use crate::workspace_root;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the dev server may take to say it is listening (workerd compiles the wasm).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// What the Worker is started with.
#[derive(Debug, Clone, Default)]
pub struct EdgeDevOptions {
    /// The `TFLOCK_CLI_CONFIG` secret (a Terraform CLI config text).
    pub cli_config: Option<String>,
    /// The `UPLOAD_TOKEN` secret.
    pub upload_token: Option<String>,
    /// Serve HTTPS with a fresh CA ([`EdgeDev::ca_pem_path`]).
    pub https: bool,
    /// Further bindings (`--var NAME=VALUE`).
    pub vars: Vec<(String, String)>,
    /// Environment of dev.mjs; `TF_TOKEN_*` ones become bindings (the test's own are removed).
    pub env: Vec<(String, String)>,
}

/// A running dev server; dropping it stops node and workerd.
pub struct EdgeDev {
    child: Child,
    url: String,
    ca: Option<PathBuf>,
    stderr: Arc<Mutex<String>>,
    _dir: tempfile::TempDir,
}

impl EdgeDev {
    /// Starts `node worker/dev.mjs --port 0 ...` and waits until it listens.
    pub fn start(opts: EdgeDevOptions) -> EdgeDev {
        let root = workspace_root();
        for needed in [
            "worker/build/tflock_worker_bg.wasm",
            "wasm/tools/node_modules/miniflare",
        ] {
            assert!(
                root.join(needed).exists(),
                "{needed} is missing: build the Worker first: cargo xtask worker-test"
            );
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cmd = Command::new("node");
        cmd.arg(root.join("worker/dev.mjs"))
            .args(["--port", "0"])
            .current_dir(&root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut ca = None;
        if opts.https {
            let certs = loopback_certs();
            let [ca_path, cert, key] =
                ["ca.pem", "cert.pem", "key.pem"].map(|f| dir.path().join(f));
            std::fs::write(&ca_path, &certs.ca_pem).expect("write CA");
            std::fs::write(&cert, &certs.leaf_pem).expect("write certificate");
            std::fs::write(&key, &certs.leaf_key_pem).expect("write key");
            cmd.arg("--https")
                .arg("--cert")
                .arg(&cert)
                .arg("--key")
                .arg(&key);
            ca = Some(ca_path);
        }
        if let Some(text) = &opts.cli_config {
            let path = dir.path().join("cli.tfrc");
            std::fs::write(&path, text).expect("write CLI config");
            cmd.arg("--cli-config").arg(path);
        }
        if let Some(token) = &opts.upload_token {
            cmd.args(["--upload-token", token]);
        }
        for (name, value) in &opts.vars {
            cmd.arg("--var").arg(format!("{name}={value}"));
        }
        // Only the test's own credentials reach the Worker, never the developer's.
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("TF_TOKEN_") {
                cmd.env_remove(key);
            }
        }
        cmd.envs(opts.env.iter().map(|(k, v)| (k, v)));
        // Its own process group, so Drop can stop workerd even if node is gone.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .expect("run node worker/dev.mjs (is node on PATH?)");

        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr pipe");
        let log = stderr.clone();
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                if let Ok(mut log) = log.lock() {
                    log.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        // The first stdout line is the URL; anything after it (there should be nothing) is
        // kept with stderr, and the pipe is drained so dev.mjs never blocks on it.
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout pipe");
        let log = stderr.clone();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = tx.send(first);
            }
            for line in lines.map_while(Result::ok) {
                if let Ok(mut log) = log.lock() {
                    log.push_str(&format!("[stdout] {line}\n"));
                }
            }
        });
        let mut dev = EdgeDev {
            child,
            url: String::new(),
            ca,
            stderr,
            _dir: dir,
        };
        let line = match rx.recv_timeout(START_TIMEOUT) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                "worker/dev.mjs did not print its URL within {START_TIMEOUT:?}; its stderr:\n{}",
                dev.stderr_log()
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = dev.child.wait();
                let _ = stderr_reader.join();
                panic!(
                    "worker/dev.mjs exited ({status:?}) before printing its URL; its stderr:\n{}",
                    dev.stderr_log()
                )
            }
        };
        let url = serde_json::from_str::<serde_json::Value>(&line)
            .ok()
            .and_then(|v| v["url"].as_str().map(str::to_string))
            .unwrap_or_else(|| {
                panic!(
                    "worker/dev.mjs printed {line:?}, not {{\"url\":...}}; its stderr:\n{}",
                    dev.stderr_log()
                )
            });
        dev.url = url;
        dev
    }

    /// `http(s)://127.0.0.1:<port>/`.
    pub fn base_url(&self) -> String {
        self.url.clone()
    }

    /// The PEM file of the CA that issued the server's certificate (HTTPS only).
    pub fn ca_pem_path(&self) -> Option<PathBuf> {
        self.ca.clone()
    }

    /// What dev.mjs (Miniflare, workerd, the Worker's console) wrote to stderr so far.
    pub fn stderr_log(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The process group of dev.mjs (its pid), where workerd runs too.
    pub fn process_group(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for EdgeDev {
    fn drop(&mut self) {
        let pgid = self.child.id();
        // SIGTERM lets dev.mjs dispose Miniflare, which stops workerd; whatever is left of the
        // group after a grace period is killed.
        let _ = Command::new("kill")
            .args(["-TERM", &pgid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pgid}")])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
        let deadline = Instant::now() + Duration::from_secs(5);
        while !group_processes(pgid).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The live (not zombie) processes of process group `pgid`, as `(pid, command name)`, read
/// from `/proc` (empty where there is no `/proc`).
pub fn group_processes(pgid: u32) -> Vec<(u32, String)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // `pid (comm) state ppid pgrp ...`; comm may contain spaces and parentheses.
            let (head, tail) = stat.rsplit_once(')')?;
            let comm = head.split_once('(')?.1.to_string();
            let mut fields = tail.split_whitespace();
            let state = fields.next()?;
            let pgrp: u32 = fields.nth(1)?.parse().ok()?;
            (pgrp == pgid && state != "Z" && state != "X").then_some((pid, comm))
        })
        .collect()
}
