//! The admin API driven from Python, as a team in another language drives it: the packaged
//! sample server with its admin API (`MockServer::builder().admin(true)`, the same API as the
//! binary's `--admin`), and `tests/admin.py` (the standard library only) setting a scenario,
//! reading the journal and resetting the server over HTTP.

use std::path::Path;
use std::process::Command;

use mrds_mock::MockServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_api_from_python() {
    let server = MockServer::builder()
        .api_key("downstream-admin-key-0001")
        .admin(true)
        .start()
        .await
        .unwrap();
    let root = format!("http://{}", server.address());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/admin.py");
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(script)
            .arg(root)
            .arg("downstream-admin-key-0001")
            .output()
            .expect("python3 runs")
    })
    .await
    .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{said}");
    assert!(said.contains("admin.py: ok"), "{said}");
}
