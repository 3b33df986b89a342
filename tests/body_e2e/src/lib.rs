//! End to end over the crates generated from `tests/fixtures/body.yaml` (a `POST` with a JSON
//! body under a `{platform}` segment restricted to a value set) and `tests/fixtures/methods.yaml`
//! (a `PUT` with a body and a `DELETE` on one path, overlapping templates, a lookup integer with
//! both bounds, lists in both forms): the sample server answers them, the client sends them,
//! the server refuses what it must (413, 415, malformed JSON, every problem of parameters and
//! body at once, an item of a list by its index, a method a path does not answer), a call that
//! is not idempotent is not repeated, the most specific template serves a request everywhere
//! (the server, the journal, scenarios, the proxy), and the contract suite derived from the
//! spec passes against the sample server.
//!
//! Built and run in a scratch workspace by `tests/tests/it/bodies.rs` (`cargo test -p
//! mrds-tests --test it bodies -- --ignored`); the spec is in `../spec`.

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    use bytes::Bytes;
    use mrds_client::{Client, Error, RetryPolicy};
    use mrds_model::params::{HandleStatusParams, SocialHandlesParams};
    use mrds_model::records::{HandleQuery, HandleSubmission};
    use mrds_model::value_sets::{FollowMode, SocialPlatform};
    use mrds_runtime::client::{RawClient, http};
    use mrds_server::StaticKeys;

    const KEY: &str = "e2e-key";

    async fn serve(router: mrds_server::axum::Router) -> SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { mrds_server::axum::serve(listener, router).await });
        addr
    }

    async fn mock() -> SocketAddr {
        serve(mrds_mock::router(StaticKeys::new([KEY]))).await
    }

    fn client(addr: SocketAddr) -> Client {
        Client::builder(format!("http://{addr}"))
            .api_key(KEY)
            .build()
            .unwrap()
    }

    fn submission() -> HandleSubmission {
        HandleSubmission::new("AAPL", vec!["@apple".to_string()])
            .with_priority(2)
            .with_starts(1_700_000_000)
            .with_ends(1_700_003_600)
            .with_mode(FollowMode::Replies)
    }

    #[tokio::test]
    async fn the_client_posts_a_body_the_sample_server_answers() {
        let addr = mock().await;
        let params = SocialHandlesParams::new(SocialPlatform::Mastodon);
        let answer = client(addr)
            .social_handles(&params, &submission())
            .await
            .unwrap();
        assert_eq!(answer.data.len(), 1);
        assert_eq!(answer.data[0].symbol, "AAPL");
    }

    #[tokio::test]
    async fn the_client_refuses_an_invalid_body_without_sending_it() {
        let addr = mock().await;
        let params = SocialHandlesParams::new(SocialPlatform::Mastodon);
        // Every problem at once: a pattern, a range, a rule across fields, a rule reading a
        // parameter and the body (mastodon windows are at most a day).
        let mut body = submission()
            .with_priority(11)
            .with_ends(1_700_000_000 + 2 * 86_400);
        body.symbol = "aapl".into();
        match client(addr).social_handles(&params, &body).await {
            Err(Error::InvalidInput(e)) => {
                let rules: Vec<&str> = e.issues.iter().map(|i| i.rule).collect();
                for rule in [
                    "social_handles.body.symbol.pattern",
                    "social_handles.body.priority.range",
                    "social_handles.mastodon_short",
                ] {
                    assert!(rules.contains(&rule), "{rule} in {rules:?}");
                }
            }
            other => panic!("expected invalid input, got {other:?}"),
        }
        let fine = submission().with_starts(5).with_ends(4);
        match client(addr).social_handles(&params, &fine).await {
            Err(Error::InvalidInput(e)) => {
                assert_eq!(e.issues[0].rule, "social_handles.window");
                assert_eq!(e.issues[0].field, "body.ends");
            }
            other => panic!("expected invalid input, got {other:?}"),
        }
    }

    /// `POST` of `body` as `content_type` to the fixture's endpoint; status and JSON answer.
    async fn post(
        addr: SocketAddr,
        target: &str,
        body: impl Into<Vec<u8>>,
        content_type: &str,
    ) -> (u16, serde_json::Value) {
        let request = http::Request::post(format!("http://{addr}/api{target}"))
            .header("X-API-Key", KEY)
            .header("Content-Type", content_type)
            .body(Bytes::from(body.into()))
            .unwrap();
        let response = RawClient::new()
            .unwrap()
            .send(request, Duration::from_secs(30))
            .await
            .unwrap();
        let status = response.status().as_u16();
        let json = serde_json::from_slice(response.body()).unwrap();
        (status, json)
    }

    const HANDLES: &str = "/v1/social-feeds/mastodon/handles";

    #[tokio::test]
    async fn the_server_refuses_bodies_it_cannot_take() {
        let addr = mock().await;
        let valid = serde_json::to_string(&submission()).unwrap();
        let (status, json) = post(addr, HANDLES, valid.clone(), "application/json").await;
        assert_eq!(status, 200, "{json}");

        let (status, json) = post(addr, HANDLES, valid.clone(), "text/plain").await;
        assert_eq!((status, json["error"]["code"].as_str()), (415, Some("UNSUPPORTED_MEDIA_TYPE")));
        assert!(json["request_id"].is_string());

        let big = format!("{{\"symbol\":\"{}\"}}", "A".repeat(mrds_runtime::DEFAULT_BODY_LIMIT));
        let (status, json) = post(addr, HANDLES, big, "application/json").await;
        assert_eq!((status, json["error"]["code"].as_str()), (413, Some("PAYLOAD_TOO_LARGE")));

        let (status, json) = post(addr, HANDLES, "{\n  \"symbol\": AAPL }", "application/json").await;
        assert_eq!(status, 400, "{json}");
        let reason = json["error"]["details"][0]["reason"].as_str().unwrap();
        assert!(reason.contains("not valid JSON at line 2, column"), "{reason}");
        assert_eq!(json["error"]["details"][0]["field"], "body");

        let (status, json) = post(addr, HANDLES, "{\"symbol\": \"AAPL\"}", "application/json").await;
        assert_eq!(status, 400, "{json}");
        let reason = json["error"]["details"][0]["reason"].as_str().unwrap();
        assert!(reason.contains("missing field `handles`"), "{reason}");

        // A parameter and the body wrong at once: both reported.
        let body = serde_json::json!({ "symbol": "AAPL", "handles": [], "priority": 0 }).to_string();
        let (status, json) = post(
            addr,
            "/v1/social-feeds/myspace/handles?dry_run=maybe",
            body,
            "application/json",
        )
        .await;
        assert_eq!(status, 400, "{json}");
        let details = json["error"]["details"].as_array().unwrap();
        let fields: Vec<&str> = details.iter().filter_map(|d| d["field"].as_str()).collect();
        for field in ["platform", "dry_run", "body.priority"] {
            assert!(fields.contains(&field), "{field} in {fields:?}");
        }
    }

    /// A server answering 503 to everything, counting the requests.
    async fn unavailable() -> (SocketAddr, Arc<AtomicU32>) {
        use mrds_server::axum::routing::any;
        let count = Arc::new(AtomicU32::new(0));
        let seen = count.clone();
        let router = mrds_server::axum::Router::new().fallback(any(move || {
            let seen = seen.clone();
            async move {
                seen.fetch_add(1, Ordering::SeqCst);
                (
                    mrds_server::axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "{\"success\":false}",
                )
            }
        }));
        (serve(router).await, count)
    }

    fn fast(idempotency_keys: bool) -> RetryPolicy {
        RetryPolicy {
            max_retries: 2,
            initial_backoff: std::time::Duration::from_millis(1),
            max_backoff: std::time::Duration::from_millis(5),
            idempotency_keys,
        }
    }

    #[tokio::test]
    async fn a_call_that_is_not_idempotent_is_not_repeated() {
        let params = SocialHandlesParams::new(SocialPlatform::X);
        let (addr, count) = unavailable().await;
        let client = Client::builder(format!("http://{addr}"))
            .api_key(KEY)
            .retry(fast(false))
            .build()
            .unwrap();
        let error = client.social_handles(&params, &submission()).await.unwrap_err();
        assert_eq!((error.attempts(), count.load(Ordering::SeqCst)), (1, 1));

        // The spec marks `handle_status` idempotent: repeated like a read.
        let (addr, count) = unavailable().await;
        let client = Client::builder(format!("http://{addr}"))
            .retry(fast(false))
            .build()
            .unwrap();
        let query = HandleQuery::new(vec!["@apple".into()]);
        let error = client
            .handle_status(&HandleStatusParams::new(), &query)
            .await
            .unwrap_err();
        assert_eq!((error.attempts(), count.load(Ordering::SeqCst)), (3, 3));

        // With idempotency keys, a call that is not idempotent is repeated too.
        let (addr, count) = unavailable().await;
        let client = Client::builder(format!("http://{addr}"))
            .api_key(KEY)
            .retry(fast(true))
            .build()
            .unwrap();
        let error = client.social_handles(&params, &submission()).await.unwrap_err();
        assert_eq!((error.attempts(), count.load(Ordering::SeqCst)), (3, 3));
    }

    #[tokio::test]
    async fn the_contract_suite_passes_the_sample_server() {
        let addr = mock().await;
        let api = mrds_spec::load_spec(std::path::Path::new("../spec")).unwrap();
        let options = mrds_contract::Options {
            base_url: format!("http://{addr}"),
            api_key: Some(KEY.to_string()),
            timeout: std::time::Duration::from_secs(10),
            require_all: true,
            ..Default::default()
        };
        let outcomes = mrds_contract::run(&api, &options).await.unwrap();
        let failed: Vec<String> = outcomes
            .iter()
            .filter(|o| o.verdict != mrds_contract::Verdict::Passed)
            .map(|o| format!("{}: {:?}", o.id, o.verdict))
            .collect();
        assert!(failed.is_empty(), "{}", failed.join("\n"));
        // The body's probes are among them.
        for id in [
            "social_handles.body.not_json",
            "social_handles.body.too_large",
            "social_handles.body.wrong_content_type",
            "social_handles.body.priority.above_max",
            "social_handles.body.symbol.not_matching",
            "social_handles.window.broken",
            "social_handles.mastodon_short.broken",
        ] {
            assert!(outcomes.iter().any(|o| o.id == id), "{id} is checked");
        }
    }

    mod methods {
        use std::net::SocketAddr;
        use std::time::Duration;

        use mrds_client::{Client, Error};
        use mrds_mock::{MockServer, Scenario};
        use mrds_model::api::{PERSON_BY_SOURCE, PERSON_NOTES};
        use mrds_model::params::{
            PersonBySourceParams, PersonNotesParams, SubscriptionDeleteParams,
            SubscriptionPutParams,
        };
        use mrds_model::records::SubscriptionUpdate;
        use mrds_model::value_sets::{Facet, Feed, Source};
        use mrds_runtime::client::{RawClient, http};

        use super::{KEY, client, mock};

        /// `method target` with the key; status, `Allow` and the JSON answer.
        async fn send(
            addr: SocketAddr,
            method: &str,
            target: &str,
        ) -> (u16, Option<String>, serde_json::Value) {
            let request = http::Request::builder()
                .method(method)
                .uri(format!("http://{addr}/api{target}"))
                .header("X-API-Key", KEY)
                .body(bytes::Bytes::new())
                .unwrap();
            let response = RawClient::new()
                .unwrap()
                .send(request, Duration::from_secs(30))
                .await
                .unwrap();
            let allow = (response.headers().get("allow"))
                .map(|v| v.to_str().unwrap().to_owned());
            let json = serde_json::from_slice(response.body()).unwrap_or_default();
            (response.status().as_u16(), allow, json)
        }

        #[tokio::test]
        async fn a_put_with_a_body_and_a_delete_go_end_to_end() {
            let addr = mock().await;
            let client = client(addr);
            let put = SubscriptionPutParams::new(Feed::Alpha, "@apple");
            let answer = client
                .subscription_put(&put, &SubscriptionUpdate::new(7))
                .await
                .unwrap();
            assert_eq!((answer.data[0].handle.as_str(), answer.data[0].weight), ("@apple", 7));
            // The body is checked before anything is sent.
            match client.subscription_put(&put, &SubscriptionUpdate::new(11)).await {
                Err(Error::InvalidInput(e)) => {
                    assert_eq!(e.issues[0].rule, "subscription_put.body.weight.range");
                }
                other => panic!("expected invalid input, got {other:?}"),
            }
            let delete = SubscriptionDeleteParams::new(Feed::Alpha, "@apple");
            let answer = client.subscription_delete(&delete).await.unwrap();
            assert_eq!(answer.data[0].weight, 0);
            // A handle the samples do not hold is not found.
            let gone = SubscriptionDeleteParams::new(Feed::Alpha, "@nobody");
            match client.subscription_delete(&gone).await {
                Err(e) => assert_eq!(e.status(), Some(404), "{e:?}"),
                Ok(answer) => panic!("expected 404, got {answer:?}"),
            }
            // The path answers PUT and DELETE, nothing else.
            let (status, allow, json) = send(addr, "GET", "/v1/feeds/alpha/handles/@apple").await;
            assert_eq!((status, allow.as_deref()), (405, Some("PUT,DELETE")), "{json}");
            assert!(json["request_id"].is_string(), "in the envelope: {json}");
            let (status, _, _) = send(addr, "DELETE", "/v1/feeds/alpha/handles/@apple").await;
            assert_eq!(status, 200);
        }

        #[tokio::test]
        async fn a_list_travels_in_its_form_and_its_items_are_checked() {
            let addr = mock().await;
            let params = PersonBySourceParams::new(Source::Podcast, 17)
                .with_fields(vec![Facet::Name, Facet::Party])
                .with_years(vec![2020, 2024]);
            assert_eq!(
                params.to_query(),
                [("fields", "name,party".to_string()), ("years", "2020".into()), ("years", "2024".into())]
            );
            let answer = client(addr).person_by_source(&params).await.unwrap();
            assert_eq!(answer.data[0].name, "Ada");
            // Each item is checked; an issue names the item by its index and value.
            let (status, _, json) =
                send(addr, "GET", "/v1/persons/podcast/17?years=2020&years=1800&fields=name,nope").await;
            assert_eq!(status, 400, "{json}");
            let details: Vec<(String, String, String)> = json["error"]["details"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let text = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
                    (text("field"), text("got"), text("reason"))
                })
                .collect();
            let named = |field: &str, got: &str, rule: &str| {
                details
                    .iter()
                    .any(|(f, g, r)| f == field && g == got && r.contains(rule))
            };
            assert!(named("fields[1]", "nope", "person_by_source.fields.values"), "{details:?}");
            assert!(named("years[1]", "1800", "person_by_source.years.range"), "{details:?}");
            // Too few items, refused by the client before anything is sent.
            let one = PersonBySourceParams::new(Source::Podcast, 17).with_years(vec![2020]);
            match client(addr).person_by_source(&one).await {
                Err(Error::InvalidInput(e)) => {
                    assert_eq!((e.issues[0].rule, &*e.issues[0].field), ("person_by_source.years.items", "years"));
                }
                other => panic!("expected invalid input, got {other:?}"),
            }
            // The server agrees with the client on the same request.
            let (status, _, json) = send(addr, "GET", "/v1/persons/podcast/17?years=2020").await;
            assert_eq!(status, 400, "{json}");
            assert_eq!(json["error"]["details"][0]["field"], "years");
        }

        #[tokio::test]
        async fn the_most_specific_template_serves_a_request_everywhere() {
            let server = MockServer::builder().api_key(KEY).start().await.unwrap();
            let client = Client::builder(server.base_url()).api_key(KEY).build().unwrap();
            // `/v1/persons/congress/notes` fits both templates; the literal `notes` wins.
            server.answer(&PERSON_NOTES, Scenario::status(429).times(1)).unwrap();
            let notes = client.person_notes(&PersonNotesParams::new("congress")).await;
            assert_eq!(notes.map(|a| a.data.len()).ok(), Some(1), "the scenario, then a retry");
            let person = client
                .person_by_source(&PersonBySourceParams::new(Source::Congress, 42))
                .await
                .unwrap();
            assert_eq!(person.data[0].name, "Grace");
            let journal = server.received_requests();
            let endpoints: Vec<&str> = journal.iter().map(|r| r.endpoint.unwrap().id).collect();
            assert_eq!(endpoints, ["person_notes", "person_notes", "person_by_source"]);
            assert_eq!(server.received_requests_of(&PERSON_BY_SOURCE).len(), 1);
        }

        #[tokio::test]
        async fn the_proxy_judges_a_request_by_the_most_specific_template() {
            let provider = mock().await;
            let proxy = mrds_runtime::proxy::Proxy::builder(&mrds_mock::APP, format!("http://{provider}").as_str())
                .build()
                .unwrap();
            let at = super::serve(proxy.router()).await;
            // Judged as `person_by_source`, `notes` would be an id that is not an integer, which
            // the service answers 200: a false `rule.stricter`.
            let (status, _, _) = send(at, "GET", "/v1/persons/congress/notes").await;
            assert_eq!(status, 200);
            let (status, _, _) = send(at, "GET", "/v1/persons/congress/42?fields=name").await;
            assert_eq!(status, 200);
            assert!(proxy.findings().is_empty(), "{:#?}", proxy.findings());
        }
    }

}
