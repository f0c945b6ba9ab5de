//! `cargo xtask bench metadata`: `providers lock` of 5 providers × 6 platforms through a
//! loopback HTTPS network mirror that lists every platform's `h1:` and `zh:` (what the edge
//! mirror serves), downloading every package (the products' behaviour) and with
//! `-metadata-hashes` (one package per provider; none once the hash cache has it). Time and
//! bytes served are printed as ratios against the full download measured in the same run,
//! beside the real Terraform's `providers lock -net-mirror` (the oracle, `cargo xtask
//! setup`), and the three lock files are compared byte for byte.
//!
//! Packages are `TFLOCK_BENCH_MB` MB each (default 25).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tflock_tests::bench_packages::{self, zip_name, VERSION};
use tflock_tests::http_server::StaticServer;

const HOST: &str = "registry.bench.example";
const PROVIDERS: [&str; 5] = ["alpha", "bravo", "charlie", "delta", "echo"];
const PLATFORMS: [&str; 6] = [
    "darwin_amd64",
    "darwin_arm64",
    "linux_amd64",
    "linux_arm64",
    "windows_amd64",
    "windows_arm64",
];

fn main() {
    let mb = bench_packages::package_mb(25);
    let root = tflock_tests::target_dir().join("bench-lock");
    std::fs::create_dir_all(&root).expect("mkdir");
    eprintln!(
        "generating {} zips of ~{mb} MB (cached under {})...",
        PROVIDERS.len() * PLATFORMS.len(),
        root.display()
    );
    let zips = bench_packages::generate(&root, mb, &PROVIDERS, &PLATFORMS);
    let files = mirror_tree(&zips);
    let sizes: BTreeMap<String, u64> = files
        .iter()
        .map(|(path, (body, _))| (path.clone(), body.len() as u64))
        .collect();
    let mirror = StaticServer::start_tls(files);
    let home = tempfile::tempdir().expect("tempdir");
    let ca = home.path().join("ca.pem");
    std::fs::write(&ca, mirror.ca_pem().expect("TLS")).expect("write CA");
    let bin = tflock_tests::release_tflock_bin();
    let net = format!("-net-mirror={}/providers/", mirror.base_url());

    let mut args = vec!["providers".to_string(), "lock".to_string(), net];
    args.extend(PLATFORMS.iter().map(|p| format!("-platform={p}")));
    let tflock = |extra: &[&str]| {
        let mut c = Command::new(&bin);
        c.args(&args).args(extra);
        c
    };
    let terraform = {
        let mut c = tflock_tests::terraform::terraform();
        c.args(&args);
        c
    };

    let bench = Bench {
        home: home.path(),
        ca: &ca,
        mirror: &mirror,
        sizes: &sizes,
    };
    let full = bench.run(tflock(&["-no-hash-cache"]), "full");
    let meta = bench.run(tflock(&["-metadata-hashes"]), "metadata");
    let warm = bench.run(tflock(&["-metadata-hashes"]), "metadata-warm");
    let tf = bench.run(terraform, "terraform");
    let same = full.lock == meta.lock && meta.lock == warm.lock && warm.lock == tf.lock;

    let total: u64 = zips.values().map(|z| z.len() as u64).sum();
    println!(
        "providers lock -net-mirror: {} providers x {} platforms, {:.0} MB of packages, loopback HTTPS",
        PROVIDERS.len(),
        PLATFORMS.len(),
        total as f64 / 1e6
    );
    println!(
        "{:<44} {:>8} {:>10} {:>8} {:>11} {:>12}",
        "", "seconds", "MB served", "zips", "time / full", "bytes / full"
    );
    let rows = [
        ("terraform providers lock", &tf),
        ("tflock, every package (no hash cache)", &full),
        ("tflock -metadata-hashes, cold", &meta),
        ("tflock -metadata-hashes, warm (hash cache)", &warm),
    ];
    for (name, r) in rows {
        println!(
            "{name:<44} {:>8.2} {:>10.1} {:>8} {:>11.3} {:>12.3}",
            r.time.as_secs_f64(),
            r.bytes as f64 / 1e6,
            r.zips,
            r.time.as_secs_f64() / full.time.as_secs_f64(),
            r.bytes as f64 / full.bytes as f64
        );
    }
    let same = if same { "yes" } else { "NO" };
    println!("lock files byte-identical (full, metadata cold and warm, Terraform): {same}");

    let what = format!("5 providers x 6 platforms, {mb} MB packages, loopback HTTPS mirror");
    let ratio = |a: f64, b: f64| format!("{:.3}x", a / b);
    let secs = |r: &Measured| r.time.as_secs_f64();
    let bytes = |r: &Measured| r.bytes as f64;
    for (row, value, goal) in [
        (
            format!("time: -metadata-hashes / full download, cold, {what}"),
            ratio(secs(&meta), secs(&full)),
            "< 1x",
        ),
        (
            format!("bytes: -metadata-hashes / full download, cold, {what}"),
            ratio(bytes(&meta), bytes(&full)),
            "<= 1/6",
        ),
        (
            format!("time: -metadata-hashes, warm (hash cache) / full download, {what}"),
            ratio(secs(&warm), secs(&full)),
            "< 1x",
        ),
        (
            format!("time: terraform / full download, {what}"),
            ratio(secs(&tf), secs(&full)),
            "-",
        ),
        (
            format!("lock files byte-identical (full, metadata, Terraform), {what}"),
            same.to_string(),
            "yes",
        ),
    ] {
        tflock_tests::bench_summary("metadata", &row, &value, goal);
    }
}

/// What one run cost and wrote.
struct Measured {
    time: Duration,
    bytes: u64,
    zips: usize,
    lock: String,
}

/// The shared HOME, the mirror and what each of its files weighs.
struct Bench<'a> {
    home: &'a Path,
    ca: &'a Path,
    mirror: &'a StaticServer,
    sizes: &'a BTreeMap<String, u64>,
}

impl Bench<'_> {
    /// Runs `cmd` in a fresh working directory named `name`; its wall time, the bytes the
    /// mirror served it and the lock it wrote.
    fn run(&self, mut cmd: Command, name: &str) -> Measured {
        let dir = self.workdir(name);
        let before = self.mirror.requests().len();
        cmd.current_dir(&dir)
            .env("HOME", self.home)
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .env("SSL_CERT_FILE", self.ca)
            // Cold means cold: this run's own hash cache, which only these runs fill.
            .env("TFLOCK_CACHE_DIR", self.home.join("hash-cache"));
        let started = Instant::now();
        let out = cmd.output().expect("run");
        let time = started.elapsed();
        assert!(
            out.status.success(),
            "{name} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let served = self.mirror.requests()[before..].to_vec();
        Measured {
            time,
            bytes: served.iter().filter_map(|p| self.sizes.get(p)).sum(),
            zips: served.iter().filter(|p| p.ends_with(".zip")).count(),
            lock: std::fs::read_to_string(dir.join(".terraform.lock.hcl")).expect("lock"),
        }
    }

    fn workdir(&self, name: &str) -> PathBuf {
        let dir = self.home.join(name);
        std::fs::create_dir_all(&dir).expect("workdir");
        std::fs::write(dir.join("main.tf"), main_tf()).expect("main.tf");
        dir
    }
}

/// The module: every bench provider, pinned.
fn main_tf() -> String {
    let mut main_tf = String::from("terraform {\n  required_providers {\n");
    for p in PROVIDERS {
        main_tf.push_str(&format!("    {p} = {{\n      source  = \"{HOST}/bench/{p}\"\n      version = \"{VERSION}\"\n    }}\n"));
    }
    main_tf.push_str("  }\n}\n");
    main_tf
}

/// The network mirror: `index.json`, `<version>.json` listing each platform's archive with
/// its `h1:` and `zh:`, and the archives beside them.
fn mirror_tree(zips: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, (Vec<u8>, String)> {
    let json = |v: serde_json::Value| {
        (
            serde_json::to_vec(&v).expect("json"),
            "application/json".to_string(),
        )
    };
    let mut out = BTreeMap::new();
    for provider in PROVIDERS {
        let dir = format!("/providers/{HOST}/bench/{provider}/");
        out.insert(
            format!("{dir}index.json"),
            json(serde_json::json!({"versions": {VERSION: {}}})),
        );
        let mut archives = serde_json::Map::new();
        for platform in PLATFORMS {
            let zip = &zips[&bench_packages::zip_path(provider, platform)];
            let hashes = tflock_core::hash::hash_zip(zip).expect("hash bench zip");
            archives.insert(
                platform.to_string(),
                serde_json::json!({
                    "url": zip_name(provider, platform),
                    "hashes": [hashes.h1.to_string(), hashes.zh.to_string()],
                }),
            );
            out.insert(
                format!("{dir}{}", zip_name(provider, platform)),
                (zip.clone(), "application/zip".to_string()),
            );
        }
        out.insert(
            format!("{dir}{VERSION}.json"),
            json(serde_json::json!({ "archives": archives })),
        );
    }
    out
}
