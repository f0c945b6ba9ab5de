//! `cargo xtask bench merge`: load + merge + provider requirements of a generated module of
//! 2,000 files (1,800 primary files holding 20,000 resources, 200 override files), against
//! Go's `hclsyntax.ParseConfig` of the same files (parse only), measured in the same run.
//! Both sides have the files in memory before timing; each reports its best of several runs.

use std::time::{Duration, Instant};
use tflock_core::config::requirements::requirements;
use tflock_core::config::{load_module, LoadOptions};
use tflock_core::Flavor;

const PRIMARY: usize = 1800;
const OVERRIDES: usize = 200;
const RESOURCES: usize = 20_000;
const RUNS: usize = 5;

fn generate() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let per_file = RESOURCES.div_ceil(PRIMARY);
    let mut n = 0;
    for f in 0..PRIMARY {
        let mut s = String::new();
        if f == 0 {
            s.push_str("terraform {\n  required_version = \">= 1.5\"\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 5.0\"\n    }\n  }\n}\n\n");
        }
        for _ in 0..per_file {
            if n == RESOURCES {
                break;
            }
            let ty = [
                "aws_instance",
                "aws_s3_bucket",
                "google_compute_instance",
                "random_id",
            ][n % 4];
            s.push_str(&format!(
                "# resource {n}\nresource \"{ty}\" \"r{n}\" {{\n  name  = \"r{n}-${{var.env}}\"\n  count = {c}\n  tags = {{\n    Owner = \"team-{t}\"\n    Index = {n}\n  }}\n\n  lifecycle {{\n    create_before_destroy = true\n  }}\n}}\n\n",
                c = n % 3,
                t = n % 17
            ));
            n += 1;
        }
        files.push((format!("main_{f:04}.tf"), s.into_bytes()));
    }
    for o in 0..OVERRIDES {
        let mut s = String::new();
        for k in 0..10 {
            let n = (o * 97 + k * 1009) % RESOURCES;
            let ty = [
                "aws_instance",
                "aws_s3_bucket",
                "google_compute_instance",
                "random_id",
            ][n % 4];
            s.push_str(&format!(
                "resource \"{ty}\" \"r{n}\" {{\n  count = 5\n  lifecycle {{\n    prevent_destroy = true\n  }}\n}}\n\n"
            ));
        }
        files.push((format!("o{o:03}_override.tf"), s.into_bytes()));
    }
    files
}

fn best<F: FnMut()>(mut f: F) -> Duration {
    (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let files = generate();
    let dir = tflock_tests::target_dir().join("bench-merge");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir bench-merge");
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).expect("write bench file");
    }
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    eprintln!("{} files, {:.1} MB", files.len(), total as f64 / 1e6);

    let oracle = tflock_tests::oracle("hcl_parse_dir");
    let out = std::process::Command::new(oracle)
        .arg(&dir)
        .arg(RUNS.to_string())
        .output()
        .expect("run hcl_parse_dir");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace();
    let go_ns: u64 = parts.next().and_then(|s| s.parse().ok()).expect("ns");
    let go_files: usize = parts.next().and_then(|s| s.parse().ok()).expect("files");
    assert_eq!(go_files, files.len());
    let go = Duration::from_nanos(go_ns);

    let opts = LoadOptions::new(Flavor::Terraform);
    let mut check = 0;
    let ours = best(|| {
        let loaded = load_module(&files, &opts);
        assert!(
            !loaded.diagnostics.has_errors(),
            "{:?}",
            loaded.diagnostics.iter().next()
        );
        let reqs = requirements(&loaded.module, "", opts.flavor);
        check = loaded.module.blocks.len() + reqs.providers.len();
    });
    println!("merge: load+merge+requirements of {} files: {ours:?} (module blocks + providers = {check})", files.len());
    println!("merge: Go hclsyntax.ParseConfig alone:           {go:?}");
    let ratio = ours.as_secs_f64() / go.as_secs_f64();
    println!("merge: ratio tflock / Go parse = {ratio:.2}x (goal <= 1.0x)");
    tflock_tests::bench_summary(
        "merge",
        &format!(
            "tflock load+merge+requirements / Go hclsyntax parse only, {} files",
            files.len()
        ),
        &format!("{ratio:.2}x"),
        "<= 1.0x",
    );
}
