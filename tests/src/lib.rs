//! Test-only crate; see the `tests/` directory. The library holds what several tests share:
//! compiling the crates generated from a spec in a scratch workspace, the spec grammar of the
//! property test, the overlays of the spec corpora ([`overlay`]), loading specs in a child
//! process with a capped heap ([`capped`]), and the properties the fuzz targets assert, with
//! their seeds ([`fuzz`]). Its doctests are the Rust snippets of the README and of `docs/`
//! (module `snippets`, made by `build.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use mrds_emit::FileSet;

/// The Rust snippets of the README and of every page in `docs/`, compiled (and, unless marked
/// `no_run`, run) as this crate's doctests: one item per page, documented with the page (see
/// `build.rs`, which comments out the attributes of the snippets' tests so that their bodies
/// are compiled).
#[cfg(doctest)]
pub mod snippets {
    include!(concat!(env!("OUT_DIR"), "/docs/snippets.rs"));
}

/// An error and its sources on one line, each after `: `: what a report of it shows.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The workspace root (the parent of the tests crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is one level below the workspace root")
        .to_path_buf()
}

/// The real spec (`spec/`), resolved, loaded once per process: for tests that take a value of
/// the spec (a bound, a default) instead of restating it.
pub fn real_spec() -> &'static mrds_spec::model::Api {
    static API: std::sync::OnceLock<mrds_spec::model::Api> = std::sync::OnceLock::new();
    API.get_or_init(|| {
        mrds_spec::load_spec(&workspace_root().join("spec")).unwrap_or_else(|d| panic!("{d}"))
    })
}

/// The sample request of the real spec's first endpoint (by id) that is served (not marked
/// removed), is a GET and needs the key: a request the sample server answers with records, for
/// tests of what does not depend on the endpoint (keys, limits, logs, shutdown, retries). Read
/// from the generated examples, so a removal in `spec/` moves it to the next such endpoint.
pub fn served_example() -> &'static mrds_mock::Example {
    let api = mrds_model::api::ENDPOINTS;
    mrds_mock::EXAMPLES
        .iter()
        .find(|x| {
            api.iter().any(|e| {
                e.id == x.endpoint
                    && e.removed.is_none()
                    && e.method == mrds_runtime::Method::Get
                    && e.auth == mrds_runtime::Auth::Required
            })
        })
        .expect("the spec serves a GET that needs the key")
}

/// The endpoints of the real spec that [`served_example`] could stand for, in the order of the
/// generated `ENDPOINTS`: served (not marked removed), `GET`, needing the key, with a sample
/// example that gives a query parameter (what a scenario matches on). Tests of the sample
/// server's machinery (scenarios, the journal, the admin API) take the first two, so a removal
/// in `spec/` moves them to the next ones.
pub fn served_endpoints() -> Vec<&'static mrds_runtime::Endpoint> {
    (mrds_model::api::ENDPOINTS.iter())
        .filter(|e| {
            e.removed.is_none()
                && e.method == mrds_runtime::Method::Get
                && e.auth == mrds_runtime::Auth::Required
                && (mrds_mock::EXAMPLES.iter()).any(|x| {
                    x.endpoint == e.id
                        && x.request
                            .split_once('?')
                            .is_some_and(|(_, q)| !q.is_empty())
                })
        })
        .collect()
}

/// The query pairs of the sample request of endpoint `id`, decoded, in the example's order.
///
/// # Panics
///
/// When the spec has no sample example of `id`.
pub fn example_query(id: &str) -> Vec<(String, String)> {
    let example = (mrds_mock::EXAMPLES.iter())
        .find(|x| x.endpoint == id)
        .unwrap_or_else(|| panic!("no sample example of {id}"));
    let query = example.request.split_once('?').map_or("", |(_, q)| q);
    (query.split('&'))
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |t: &str| mrds_runtime::text::percent_decode(&t.replace('+', " "));
            (decode(name), decode(value))
        })
        .collect()
}

/// A served request with an integer query parameter, for tests of how integers are read
/// whatever the endpoint: the first served `GET` endpoint (needing the key) whose sample
/// example gives an integer query parameter that takes `0` (no lower bound above it, no format
/// but Unix seconds).
#[derive(Clone, Debug)]
pub struct IntegerExample {
    /// The endpoint's id.
    pub endpoint: String,
    /// The example's path, below the base path.
    pub path: String,
    /// The example's query pairs, decoded.
    pub query: Vec<(String, String)>,
    /// The integer parameter's wire name.
    pub param: String,
}

impl IntegerExample {
    /// The first such request of the real spec.
    ///
    /// # Panics
    ///
    /// When the spec serves none.
    pub fn find() -> Self {
        use mrds_spec::model::{IntegerFormat, ParamLocation, ValueType};
        let served = served_endpoints();
        (real_spec().endpoints.iter())
            .filter(|e| served.iter().any(|s| s.id == e.id))
            .find_map(|e| {
                let example = mrds_mock::EXAMPLES.iter().find(|x| x.endpoint == e.id)?;
                let query = example_query(&e.id);
                let p = e.params.iter().find(|p| {
                    p.location == ParamLocation::Query
                        && p.list.is_none()
                        && query.iter().any(|(n, _)| *n == p.wire)
                        && matches!(&p.ty, ValueType::Integer(t)
                            if t.min.is_none_or(|m| m <= 0)
                                && t.format.is_none_or(|f| f == IntegerFormat::UnixSeconds))
                })?;
                let path = example
                    .request
                    .split_once('?')
                    .map_or(example.request, |(p, _)| p);
                Some(IntegerExample {
                    endpoint: e.id.clone(),
                    path: path.to_string(),
                    query,
                    param: p.wire.clone(),
                })
            })
            .expect("the spec serves an example with an integer query parameter")
    }

    /// The example's target with the integer parameter's value `raw` (sent as written, not
    /// encoded), and `extra` pairs after it.
    pub fn with(&self, raw: &str, extra: &str) -> String {
        let pairs: Vec<String> = (self.query.iter())
            .map(|(n, v)| match *n == self.param {
                true => format!("{n}={raw}"),
                false => format!("{n}={}", mrds_runtime::text::percent_encode(v)),
            })
            .collect();
        format!("{}?{}{extra}", self.path, pairs.join("&"))
    }

    /// The example's own value of the integer parameter.
    pub fn value(&self) -> &str {
        let pair = self.query.iter().find(|(n, _)| *n == self.param);
        pair.map_or("", |(_, v)| v.as_str())
    }

    /// The id of the parameter's own check `check` (`type`, `repeated`).
    pub fn rule(&self, check: &str) -> String {
        format!("{}.{}.{check}", self.endpoint, self.param)
    }
}

/// `wanted`, or `wanted_2`, `wanted_3`...: the first that `taken` refuses not.
fn absent(wanted: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut name = wanted.to_string();
    let mut n = 2;
    while taken(&name) {
        name = format!("{wanted}_{n}");
        n += 1;
    }
    name
}

/// An error code the real spec does not have, `wanted` when it has not (`QUOTA_EXCEEDED`): for
/// a test of an unknown code, which a release adding that code must not make known.
pub fn unknown_code(wanted: &str) -> String {
    absent(wanted, |c| {
        real_spec().error_codes.iter().any(|e| e.code == c)
    })
}

/// A value the real spec's value set `set` (its Rust name, `SourceKind`, or its spec name) does
/// not have, `wanted` when it has not.
///
/// # Panics
///
/// When the spec has no such value set.
pub fn unknown_value(set: &str, wanted: &str) -> String {
    let api = real_spec();
    let values: Vec<&str> = if set == "ErrorCode" {
        api.error_codes.iter().map(|c| c.code.as_str()).collect()
    } else {
        let vs = (api.value_sets.iter())
            .find(|v| v.name == set || v.spec_name == set)
            .unwrap_or_else(|| panic!("no value set `{set}`"));
        vs.values.iter().map(|v| v.wire.as_str()).collect()
    };
    absent(wanted, |v| values.contains(&v))
}

/// A field the real spec's record `record` (its Rust name or its spec name) does not have,
/// `wanted` when it has not (`currency`): for a test of a field the client does not know.
///
/// # Panics
///
/// When the spec has no such record.
pub fn unknown_field(record: &str, wanted: &str) -> String {
    let r = (real_spec().records.iter())
        .find(|r| r.name == record || r.spec_name == record)
        .unwrap_or_else(|| panic!("no record `{record}`"));
    absent(wanted, |f| r.field_named(f).is_some())
}

/// The endpoint `mrds-mock-slow` (`src/bin/`) answers late, serving it even when the spec marks
/// it removed.
pub const SLOW_ENDPOINT: &str = "treasury_rates";

/// [`served_example`]'s target below the host: `/api/v1/...?...`.
pub fn served_target() -> &'static str {
    static TARGET: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TARGET.get_or_init(|| format!("{}{}", mrds_model::api::BASE_PATH, served_example().request))
}

/// The sample request of endpoint `id` while the spec serves it; `None` once the spec marks it
/// removed (or has no such endpoint): for tests of one endpoint's sample data, which say what
/// they check of it only while it is served.
pub fn example_while_served(id: &str) -> Option<&'static mrds_mock::Example> {
    let served = (mrds_model::api::ENDPOINTS.iter()).any(|e| e.id == id && e.removed.is_none());
    served
        .then(|| mrds_mock::EXAMPLES.iter().find(|x| x.endpoint == id))
        .flatten()
}

/// The bounds of the real spec's integer parameter `param` of `endpoint` (`stock_dividends`,
/// `limit`).
///
/// # Panics
///
/// When the endpoint has no such parameter, or it is not an integer with both bounds.
pub fn integer_bounds(endpoint: &str, param: &str) -> (i64, i64) {
    integer_bounds_in(real_spec(), endpoint, param)
}

/// `wanted` seconds, or less when a `max_span` rule of the real spec's `endpoint` bounds its
/// ranges more tightly: the span of a baseline request that stays valid when the provider's
/// bound comes into the spec (`cargo xtask drift --apply` adds such rules).
pub fn range_within(endpoint: &str, wanted: i64) -> i64 {
    let e = real_spec()
        .endpoint_named(endpoint)
        .unwrap_or_else(|| panic!("no endpoint `{endpoint}`"));
    (e.rules.iter())
        .filter_map(|r| match r.requirement {
            mrds_spec::model::Requirement::MaxSpan { seconds, .. } => Some(seconds),
            _ => None,
        })
        .fold(wanted, i64::min)
}

/// [`integer_bounds`] of a parameter of `api`.
pub fn integer_bounds_in(api: &mrds_spec::model::Api, endpoint: &str, param: &str) -> (i64, i64) {
    let e = api
        .endpoint_named(endpoint)
        .unwrap_or_else(|| panic!("no endpoint `{endpoint}`"));
    let p = e
        .param_named(param)
        .unwrap_or_else(|| panic!("no parameter `{param}` of `{endpoint}`"));
    match &p.ty {
        mrds_spec::model::ValueType::Integer(t) => {
            (t.min.expect("a minimum"), t.max.expect("a maximum"))
        }
        other => panic!("`{endpoint}.{param}` is {other:?}, not an integer"),
    }
}

/// The fixture specs (`tests/fixtures/*.yaml`, each on top of `base.yaml`), by name (the file
/// stem), sorted: the sources to load each one from.
pub fn fixture_specs() -> Vec<(String, Vec<(String, String)>)> {
    let dir = workspace_root().join("tests/fixtures");
    let read = |path: &Path| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        (name, std::fs::read_to_string(path).unwrap())
    };
    let base = read(&dir.join("base.yaml"));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("base.yaml"))
        .collect();
    cases.sort();
    cases
        .iter()
        .map(|case| {
            let name = case.file_stem().unwrap().to_string_lossy().into_owned();
            (name, vec![base.clone(), read(case)])
        })
        .collect()
}

/// Writes `text` to `path` unless it already holds it (so cargo sees unchanged files).
pub fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::create_dir_all(path.parent().expect("a file has a directory"))?;
    std::fs::write(path, text)
}

/// The manifest of a scratch workspace in `dir` with `members`: the package settings of this
/// workspace, a version of its own ([`scratch_version`]), `deps` (name, path) as workspace
/// dependencies pinned to that version, the runtime first, and this workspace's profiles.
pub fn scratch_manifest(dir: &Path, members: &[&str], deps: &[(&str, &str)]) -> String {
    let version = scratch_version(dir);
    let members: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    let mut manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n\
         [workspace.package]\nversion = \"{version}\"\nedition = \"2024\"\nrust-version = \"1.88\"\n\
         license = \"MIT OR Apache-2.0\"\npublish = false\n\n\
         [workspace.dependencies]\nmrds-runtime = {{ version = \"={version}\", path = \"runtime\" }}\n",
        members.join(", ")
    );
    for (name, path) in deps {
        // As in this workspace's manifest: the sample-data crate turns compression on only
        // with its command line.
        let defaults = if *name == "mrds-server" {
            ", default-features = false"
        } else {
            ""
        };
        manifest.push_str(&format!(
            "{name} = {{ version = \"={version}\", path = \"{path}\"{defaults} }}\n"
        ));
    }
    // This workspace's profiles, so the dependencies built for it are shared.
    let own = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap_or_default();
    if let Some(at) = own.find("\n[profile") {
        manifest.push_str(&own[at..]);
    }
    manifest
}

/// Makes `dir/runtime` a link to this workspace's runtime, replacing a link to another one
/// (a target directory copied from another checkout holds scratch workspaces whose links point
/// into that checkout).
pub fn link_runtime(dir: &Path) -> std::io::Result<()> {
    let link = dir.join("runtime");
    let real = workspace_root().join("runtime").canonicalize()?;
    if std::fs::read_link(&link).is_ok_and(|to| to == real) {
        return Ok(());
    }
    if link.symlink_metadata().is_ok() {
        std::fs::remove_file(&link)?;
    }
    std::fs::create_dir_all(dir)?;
    std::os::unix::fs::symlink(real, &link)
}

const ROUTER_CHECK_TOML: &str = r#"[package]
name = "router-check"
version = "0.0.0"
edition.workspace = true
publish = false

[dependencies]
mrds-mock = { path = "../crates/mrds-mock" }
mrds-server = { path = "../crates/mrds-server" }
"#;

const ROUTER_CHECK_LIB: &str = r#"//! Builds the routers of the generated server; axum panics on a route it cannot accept.
#[test]
fn the_routers_build() {
    let keys = mrds_server::StaticKeys::new(["key"]);
    let _ = mrds_mock::router(keys.clone());
    let _ = mrds_server::router(mrds_mock::Mock::serving_removed(), keys);
}
"#;

/// The generated crates' packages.
pub const GENERATED_CRATES: [&str; 4] = ["mrds-model", "mrds-server", "mrds-mock", "mrds-client"];

/// `command` followed by `-p <crate>` for each generated crate.
pub fn for_generated_crates<'a>(command: &[&'a str]) -> Vec<&'a str> {
    let mut args = command.to_vec();
    for krate in GENERATED_CRATES {
        args.extend(["-p", krate]);
    }
    args
}

/// What to run on the generated crates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    /// `cargo test --doc`: the generated docs hold no failing doctest.
    pub doctests: bool,
    /// Build and run the router check.
    pub router: bool,
}

/// Writes the generated `files` into the scratch workspace `dir` and checks them: `cargo check
/// --all-targets` with no warning in the generated code, with the default features and with
/// every feature (the typed-time methods of `jiff`), then what `checks` asks for. Cargo
/// runs offline with this workspace's `Cargo.lock` and target directory, so the dependencies
/// are the ones already built. Returns what failed, with cargo's output.
pub fn check_generated(dir: &Path, files: &FileSet, checks: Checks) -> Result<(), String> {
    // Every generated crate, the runtime (linked in), and a test that builds the sample
    // server's router (axum checks routes when the router is built).
    write_workspace(
        dir,
        files,
        "router-check",
        &[
            ("router-check/Cargo.toml", ROUTER_CHECK_TOML),
            ("router-check/src/lib.rs", ROUTER_CHECK_LIB),
        ],
    )?;
    let cargo = |args: &[&str]| cargo_in(dir, args, &[]).map(drop);
    cargo(&["check", "--workspace", "--all-targets"])?;
    // Every feature but the client's other TLS options, which only choose the TLS backend
    // (and would build aws-lc's and OpenSSL's C code for nothing the generated code decides).
    cargo(&[
        "check",
        "--workspace",
        "--all-targets",
        "--features",
        "mrds-model/jiff,mrds-server/jiff,mrds-mock/jiff,mrds-client/jiff",
    ])?;
    if checks.doctests {
        cargo(&for_generated_crates(&["test", "--doc"]))?;
    }
    if checks.router {
        // A test, not a binary: test executables have hashed names, so two scratch
        // workspaces sharing the target directory never overwrite each other's.
        cargo(&["test", "-q", "-p", "router-check"])?;
    }
    Ok(())
}

/// Runs the tests of the crate `tests/<crate_dir>` against the crates generated from `spec`
/// (named YAML texts, written to the scratch workspace's `spec/`): the crate is the member
/// `e2e` of the scratch workspace `dir`, depending on the generated crates, the runtime (server
/// and client), the generator and the contract runner.
pub fn run_generated_tests(
    dir: &Path,
    spec: &[(String, String)],
    crate_dir: &str,
) -> Result<(), String> {
    let root = workspace_root();
    let api = mrds_spec::load_sources(spec).map_err(|d| d.to_string())?;
    let files = mrds_emit::all(&api).map_err(|e| e.to_string())?;
    let root_path = root.display().to_string();
    let manifest = format!(
        "[package]\nname = \"e2e\"\nversion = \"0.0.0\"\nedition.workspace = true\npublish = false\n\n\
         [dependencies]\nmrds-client = {{ path = \"../crates/mrds-client\" }}\n\
         mrds-mock = {{ path = \"../crates/mrds-mock\" }}\nmrds-model = {{ path = \"../crates/mrds-model\" }}\n\
         mrds-server = {{ path = \"../crates/mrds-server\" }}\n\
         mrds-runtime = {{ workspace = true, features = [\"server\", \"client\", \"proxy\"] }}\n\
         mrds-spec = {{ path = \"{root_path}/codegen/spec\" }}\nmrds-contract = {{ path = \"{root_path}/contract\" }}\n\
         bytes = \"1\"\n\
         serde_json = \"1\"\ntokio = {{ version = \"1\", features = [\"macros\", \"net\", \"rt\", \"time\"] }}\n"
    );
    let source = std::fs::read_to_string(root.join("tests").join(crate_dir).join("src/lib.rs"))
        .map_err(|e| format!("cannot read tests/{crate_dir}/src/lib.rs: {e}"))?;
    write_workspace(
        dir,
        &files,
        "e2e",
        &[("e2e/Cargo.toml", &manifest), ("e2e/src/lib.rs", &source)],
    )?;
    let io = |e: std::io::Error| format!("cannot write {}: {e}", dir.display());
    if dir.join("spec").exists() {
        std::fs::remove_dir_all(dir.join("spec")).map_err(io)?;
    }
    for (name, text) in spec {
        write_if_changed(&dir.join("spec").join(name), text).map_err(io)?;
    }
    cargo_in(dir, &["test", "-q", "-p", "e2e"], &[]).map(drop)
}

/// Writes the scratch workspace `dir`: the generated `files` (replacing what an earlier run
/// generated), the runtime (a link to this workspace's), and the crate `member` made of
/// `extra` files (path relative to `dir`, content); the manifest pins the crates to a version
/// of the directory's own ([`scratch_manifest`]) and this workspace's `Cargo.lock`.
pub fn write_workspace(
    dir: &Path,
    files: &FileSet,
    member: &str,
    extra: &[(&str, &str)],
) -> Result<(), String> {
    let root = workspace_root();
    let io =
        |e: std::io::Error| format!("cannot write the scratch workspace {}: {e}", dir.display());
    // A file a previous spec generated and this one does not would be compiled too.
    if dir.join("crates").exists() {
        std::fs::remove_dir_all(dir.join("crates")).map_err(io)?;
    }
    let manifest = scratch_manifest(
        dir,
        &["crates/*", "runtime", member],
        &[
            ("mrds-model", "crates/mrds-model"),
            ("mrds-server", "crates/mrds-server"),
            ("mrds-mock", "crates/mrds-mock"),
        ],
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest).map_err(io)?;
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(io)?;
    write_if_changed(&dir.join("Cargo.lock"), &lock).map_err(io)?;
    for (path, text) in extra {
        write_if_changed(&dir.join(path), text).map_err(io)?;
    }
    // The generated crates depend on the runtime by path (`../../runtime`).
    link_runtime(dir).map_err(io)?;
    for (path, text) in files.iter() {
        write_if_changed(&dir.join(path), text).map_err(io)?;
    }
    Ok(())
}

/// Runs cargo with `args` in the scratch workspace `dir`, offline, with this workspace's
/// target directory and the environment `envs`: its standard output, or an error with cargo's
/// output when it fails or warns about the generated code.
pub fn cargo_in(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Result<String, String> {
    // Cargo's own options right after the subcommand, before a `--` and the test's arguments.
    let (command, rest) = args.split_first().ok_or("no cargo command")?;
    let output = Command::new(env!("CARGO"))
        .arg(command)
        .args(["--offline", "--message-format", "short"])
        .args(rest)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", workspace_root().join("target"))
        .env_remove("RUSTFLAGS")
        .envs(envs.iter().copied())
        .output()
        .map_err(|e| format!("cargo does not run: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    // Short messages of the generated crates: `crates/mrds-model/src/params.rs:3:5: warning: ...`.
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("crates/") && (l.contains(": warning") || l.contains(": error")))
        .collect();
    if !output.status.success() || !warnings.is_empty() {
        return Err(format!(
            "`cargo {}` in {} failed:\n{}\n{stdout}",
            args.join(" "),
            dir.display(),
            stderr
        ));
    }
    Ok(stdout)
}

/// The version of the crates of the scratch workspace `dir`, distinct per directory.
///
/// Scratch workspaces share this workspace's target directory, and cargo names a path crate's
/// library after its name, version and path *relative to its workspace*: two scratch
/// workspaces with the same version would write the same `libmrds_model-<hash>.rlib`, and a
/// test checking one could link the other's (seen as doctests that cannot find the types of
/// their own spec). The directory's name picks the patch version.
fn scratch_version(dir: &Path) -> String {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    // FNV-1a: stable across runs and toolchains, unlike `DefaultHasher`.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("0.0.{}", 1 + hash % 1_000_000)
}

pub mod capped;
pub mod conform;
pub mod fuzz;
pub mod overlay;
pub mod releases;
pub mod spec_gen;
