//! The packaged client against the packaged sample server, on a loopback port.

use mrds_client::model::params::PersonCommentaryParams;
use mrds_model::{RawParams, Request};
use mrds_server::{ServeConfig, Server, StaticKeys};

#[tokio::test]
async fn the_packaged_client_reads_the_packaged_sample_server() {
    let query = mrds_downstream::dividends_query().expect("a valid request");
    assert!(query.iter().any(|(name, _)| *name == "symbol"));

    let config = ServeConfig::default()
        .with_addr(([127, 0, 0, 1], 0).into())
        .with_handle_signals(false);
    let server = Server::bind(config).await.expect("a loopback port");
    let addr = server.local_addr().unwrap();
    let shutdown = server.shutdown_handle();
    let serving = tokio::spawn(server.serve(mrds_mock::router(StaticKeys::new([
        mrds_mock::DEMO_KEY,
    ]))));

    // The sample server's own example request of the endpoint, as typed parameters.
    let example = mrds_mock::EXAMPLES
        .iter()
        .find(|x| x.endpoint == "person_commentary")
        .expect("an example of person_commentary")
        .request;
    let (path, query) = example.split_once('?').unwrap_or((example, ""));
    let mut raw = RawParams::from_query_string(query);
    let template = <PersonCommentaryParams as Request>::ENDPOINT.path;
    for (name, value) in template.split('/').zip(path.split('/')) {
        if let Some(name) = name.strip_prefix('{').and_then(|n| n.strip_suffix('}')) {
            raw = raw.with_path(name, value);
        }
    }
    let params = PersonCommentaryParams::from_raw(&raw)
        .expect("the example is valid")
        .with_limit(1);

    let (first, all, read) = mrds_downstream::commentary(&format!("http://{addr}"), &params)
        .await
        .expect("the calls succeed");
    assert_eq!(first, 1, "limit 1: one record on the first page");
    assert!(all >= 1 && all == read, "{all} records streamed, {read} read");

    shutdown.shutdown();
    serving.await.unwrap().unwrap();
}
