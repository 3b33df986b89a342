//! How fast the generator is, stage by stage, and how it scales.
//!
//! `cargo bench -p xtask --bench generator` (criterion; release profile). Groups:
//!
//! - `pipeline`: the whole generation from spec texts to formatted files (`full`), and
//!   `codegen --check` on the up-to-date workspace (`check_up_to_date`, reading `spec/` and
//!   every generated file from disk);
//! - `stage`: where the time goes: `read` (the spec files from disk), `parse` (YAML to AST with
//!   positions), `check` (resolve and lower), `emit` (token streams), `format` (syn +
//!   prettyplease), `plan` (compare with the files on disk);
//! - `scale`: the full generation for synthetic specs 1×, 4× and 16× the real one, and
//!   `scale_stage`: each stage for 1× and 16×, to see which one grows faster than the spec.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mrds_emit as emit;
use mrds_spec::{check, load};
use xtask::codegen::Mode;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sources() -> Vec<(String, String)> {
    load::read_dir(&root().join("spec")).expect("spec/ loads")
}

fn pipeline(c: &mut Criterion) {
    let sources = sources();
    let mut group = c.benchmark_group("pipeline");
    group.bench_function("full", |b| {
        b.iter(|| {
            let api = mrds_spec::load_sources(black_box(&sources)).unwrap();
            mrds_emit::all(&api).unwrap()
        })
    });
    let root = root();
    group.bench_function("check_up_to_date", |b| {
        b.iter(|| xtask::codegen::run(black_box(&root), Mode::Check).expect("tree is up to date"))
    });
    group.finish();
}

fn stages(c: &mut Criterion) {
    let root = root();
    let sources = sources();
    let files = load::parse_all(&sources).unwrap();
    let api = check::check(&files).unwrap();
    let set = mrds_emit::all(&api).unwrap();
    let mut group = c.benchmark_group("stage");
    group.bench_function("read", |b| {
        b.iter(|| load::read_dir(black_box(&root.join("spec"))).unwrap())
    });
    group.bench_function("parse", |b| {
        b.iter(|| load::parse_all(black_box(&sources)).unwrap())
    });
    group.bench_function("check", |b| {
        b.iter(|| check::check(black_box(&files)).unwrap())
    });
    group.bench_function("emit", |b| b.iter(|| emit::tokens(black_box(&api))));
    group.bench_function("format", |b| {
        b.iter_batched(
            || emit::tokens(&api),
            |tokens| emit::format(tokens).unwrap(),
            criterion::BatchSize::SmallInput,
        )
    });
    group.bench_function("plan", |b| b.iter(|| set.plan(black_box(&root)).unwrap()));
    group.finish();
}

fn scale(c: &mut Criterion) {
    let sources = sources();
    let mut group = c.benchmark_group("scale");
    group.sample_size(20);
    for factor in [1, 4, 16] {
        let scaled = xtask::synth::scale(&sources, factor).unwrap();
        let endpoints = mrds_spec::load_sources(&scaled).unwrap().endpoints.len();
        group.throughput(Throughput::Elements(endpoints as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{factor}x")),
            &scaled,
            |b, s| {
                b.iter(|| {
                    let api = mrds_spec::load_sources(black_box(s)).unwrap();
                    mrds_emit::all(&api).unwrap()
                })
            },
        );
    }
    group.finish();
}

fn scale_stages(c: &mut Criterion) {
    let sources = sources();
    let mut group = c.benchmark_group("scale_stage");
    group.sample_size(10);
    for factor in [1, 16] {
        let scaled = xtask::synth::scale(&sources, factor).unwrap();
        let files = load::parse_all(&scaled).unwrap();
        let api = check::check(&files).unwrap();
        group.bench_function(format!("parse/{factor}x"), |b| {
            b.iter(|| load::parse_all(black_box(&scaled)).unwrap())
        });
        group.bench_function(format!("check/{factor}x"), |b| {
            b.iter(|| check::check(black_box(&files)).unwrap())
        });
        group.bench_function(format!("emit/{factor}x"), |b| {
            b.iter(|| emit::tokens(black_box(&api)))
        });
        group.bench_function(format!("format/{factor}x"), |b| {
            b.iter_batched(
                || emit::tokens(&api),
                |tokens| emit::format(tokens).unwrap(),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, stages, scale, scale_stages);
criterion_main!(benches);
