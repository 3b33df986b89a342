//! The client's paging streams against canned servers that page correctly, cap pages below
//! the requested size, ignore the offset, or say where the end is in `pagination`.
//!
//! The rule under test: the offset advances by the records received; the stream ends after an
//! empty page or when `pagination` says so (`has_more: false`, or `total` reached), never on a
//! short page alone; a page repeating the previous one fails with `Error::Paging`.

use futures_util::{StreamExt, TryStreamExt};
use mrds_client::Error;
use mrds_model::params::PersonCommentaryParams;
use mrds_model::records::PersonCommentary;
use serde_json::{Value, json};

use super::client::{PERSON, Server, commentary_row, failure, http, label, label_of, serve};

/// What the envelope's `pagination` says.
#[derive(Clone, Copy, Debug)]
enum Metadata {
    /// Nothing: no `pagination` object.
    Absent,
    /// `has_more`, true while rows remain after this page.
    HasMore,
    /// `total`, the number of rows.
    Total,
}

/// How a canned commentary server pages over `total` rows.
#[derive(Clone, Copy, Debug)]
struct Paging {
    total: i64,
    /// The most rows one answer holds, whatever the `limit`.
    cap: i64,
    /// Answers every request from row 0 (a proxy or cache that drops the offset).
    ignores_offset: bool,
    metadata: Metadata,
}

impl Paging {
    fn honest(total: i64) -> Self {
        Self {
            total,
            cap: i64::MAX,
            ignores_offset: false,
            metadata: Metadata::Absent,
        }
    }
}

async fn commentary_server(paging: Paging) -> Server {
    serve(move |_, seen| {
        let number = |name| {
            seen.query(name)
                .and_then(|v| v.parse::<i64>().ok())
                .unwrap_or(0)
        };
        let limit = number("limit").min(paging.cap);
        let offset = if paging.ignores_offset {
            0
        } else {
            number("offset")
        };
        let end = paging.total.min(offset.saturating_add(limit));
        let rows: Vec<Value> = (offset..end).map(commentary_row).collect();
        let mut envelope =
            json!({"success": true, "request_id": format!("req-{offset}"), "data": rows});
        match paging.metadata {
            Metadata::Absent => {}
            Metadata::HasMore => envelope["pagination"] = json!({"has_more": end < paging.total}),
            Metadata::Total => envelope["pagination"] = json!({"total": paging.total}),
        }
        http(200, &[], &envelope.to_string())
    })
    .await
}

fn offsets(server: &Server) -> Vec<String> {
    server
        .seen()
        .iter()
        .map(|s| s.query("offset").unwrap_or_default().to_string())
        .collect()
}

fn params(limit: i64) -> PersonCommentaryParams {
    PersonCommentaryParams::new(PERSON, 1_700_000_000, 1_710_000_000).with_limit(limit)
}

/// Every record of the stream of `params` against `server`.
async fn collect(server: &Server, params: PersonCommentaryParams) -> Vec<PersonCommentary> {
    server
        .client()
        .person_commentary_stream(&params)
        .try_collect()
        .await
        .unwrap()
}

fn quotes(rows: &[PersonCommentary]) -> Vec<String> {
    rows.iter().map(label_of).collect()
}

const FIVE: [&str; 5] = [
    "Remark 0.",
    "Remark 1.",
    "Remark 2.",
    "Remark 3.",
    "Remark 4.",
];

#[tokio::test]
async fn paging_walks_every_page_until_an_empty_one() {
    let server = commentary_server(Paging::honest(5)).await;
    let rows = collect(&server, params(2)).await;
    assert_eq!(quotes(&rows), FIVE);
    // The short page at 4 does not end the stream; the empty one at 5 does.
    assert_eq!(offsets(&server), ["0", "2", "4", "5"]);

    // An exact multiple ends on an empty page too.
    let server = commentary_server(Paging::honest(4)).await;
    let rows = collect(&server, params(2)).await;
    assert_eq!(rows.len(), 4);
    assert_eq!(offsets(&server), ["0", "2", "4"]);

    // Starting further in.
    let server = commentary_server(Paging::honest(5)).await;
    let rows = collect(&server, params(2).with_offset(3)).await;
    assert_eq!(rows.len(), 2);
    assert_eq!(offsets(&server), ["3", "5"]);

    // Nothing at all: one request, no records.
    let server = commentary_server(Paging::honest(0)).await;
    let rows = collect(&server, params(2)).await;
    assert!(rows.is_empty());
    assert_eq!(offsets(&server), ["0"]);
}

#[tokio::test]
async fn a_server_capping_the_page_size_loses_no_rows() {
    // The caller asks for pages of 5; the server answers at most 2 rows.
    let server = commentary_server(Paging {
        cap: 2,
        ..Paging::honest(5)
    })
    .await;
    let rows = collect(&server, params(5)).await;
    assert_eq!(quotes(&rows), FIVE, "every row, in order, once");
    assert_eq!(offsets(&server), ["0", "2", "4", "5"]);
    assert!(
        server.seen().iter().all(|s| s.query("limit") == Some("5")),
        "the page size asked for stays the caller's"
    );
}

#[tokio::test]
async fn a_server_ignoring_the_offset_fails_instead_of_looping() {
    // Full pages of the first rows, whatever the offset: the second page repeats the first.
    let server = commentary_server(Paging {
        ignores_offset: true,
        ..Paging::honest(50)
    })
    .await;
    let client = server.client();
    let items: Vec<_> = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        client
            .person_commentary_stream(&params(5))
            .collect::<Vec<_>>(),
    )
    .await
    .expect("the stream ends");
    assert_eq!(items.len(), 6, "five rows, then the error, then the end");
    let rows: Vec<_> = items[..5].iter().map(|r| r.as_ref().unwrap()).collect();
    assert_eq!(rows.iter().map(|r| label_of(r)).collect::<Vec<_>>(), FIVE);
    let Err(err) = &items[5] else {
        panic!("expected the paging error, got {:?}", items[5]);
    };
    let Error::Paging(e) = err else {
        panic!("expected the paging error, got {err:?}");
    };
    assert_eq!((e.offset, e.repeated_at, e.records), (0, 5, 5));
    assert_eq!(e.endpoint, "person_commentary");
    assert_eq!(e.request_id, "req-0");
    assert_eq!(err.attempts(), 1);
    let text = err.to_string();
    assert!(
        text.contains("offset 5 repeats the page at offset 0")
            && text.contains("ignores the offset"),
        "{text}"
    );
    assert_eq!(
        offsets(&server),
        ["0", "5"],
        "two requests, no duplicates yielded"
    );

    // Ignoring the offset and capping pages (the issue's proxy): still two requests.
    let server = commentary_server(Paging {
        ignores_offset: true,
        cap: 2,
        metadata: Metadata::HasMore,
        ..Paging::honest(5)
    })
    .await;
    let items: Vec<_> = server
        .client()
        .person_commentary_stream(&params(5))
        .collect()
        .await;
    assert_eq!(items.len(), 3);
    assert!(matches!(&items[2], Err(Error::Paging(e)) if (e.offset, e.repeated_at) == (0, 2)));
    assert_eq!(offsets(&server), ["0", "2"]);
}

#[tokio::test]
async fn pagination_metadata_ends_the_stream_when_it_says_so() {
    // `has_more: false` on the last page: no request for an empty page.
    let server = commentary_server(Paging {
        metadata: Metadata::HasMore,
        ..Paging::honest(5)
    })
    .await;
    let rows = collect(&server, params(2)).await;
    assert_eq!(quotes(&rows), FIVE);
    assert_eq!(offsets(&server), ["0", "2", "4"]);

    // `has_more: true` keeps a capped server's short pages coming.
    let server = commentary_server(Paging {
        cap: 2,
        metadata: Metadata::HasMore,
        ..Paging::honest(5)
    })
    .await;
    let rows = collect(&server, params(5)).await;
    assert_eq!(quotes(&rows), FIVE);
    assert_eq!(offsets(&server), ["0", "2", "4"]);

    // `total` reached.
    let server = commentary_server(Paging {
        metadata: Metadata::Total,
        ..Paging::honest(4)
    })
    .await;
    let rows = collect(&server, params(2)).await;
    assert_eq!(rows.len(), 4);
    assert_eq!(offsets(&server), ["0", "2"]);
}

#[tokio::test]
async fn the_stream_is_unpin_and_send() {
    fn unpin_and_send<T: Unpin + Send + 'static>(_: &T) {}
    let server = commentary_server(Paging::honest(3)).await;
    let client = server.client();
    // No `pin!`: `.next()` needs `Unpin`.
    let mut stream = client.person_commentary_stream(&params(2));
    unpin_and_send(&stream);
    let mut quotes = Vec::new();
    while let Some(row) = stream.next().await {
        quotes.push(label_of(&row.unwrap()));
    }
    assert_eq!(quotes, FIVE[..3]);
    assert!(stream.next().await.is_none(), "ended streams stay ended");
}

#[tokio::test]
async fn paging_ends_after_the_first_error() {
    let server = serve(|n, _| match n {
        0 => http(
            200,
            &[],
            &json!({"success": true, "request_id": "r", "data": [commentary_row(0), commentary_row(1)]})
                .to_string(),
        ),
        _ => http(500, &[], &failure("INTERNAL_ERROR", "boom", json!([]))),
    })
    .await;
    let client = server.client();
    let mut stream = client.person_commentary_stream(&params(2));
    assert!(stream.next().await.unwrap().is_ok());
    assert!(stream.next().await.unwrap().is_ok());
    let err = stream.next().await.unwrap().unwrap_err();
    assert_eq!(err.status(), Some(500));
    assert!(stream.next().await.is_none());
    assert_eq!(server.count(), 2);

    // Invalid parameters: one error, nothing sent.
    let server = commentary_server(Paging::honest(5)).await;
    let items: Vec<_> = server
        .client()
        .person_commentary_stream(&params(0))
        .collect()
        .await;
    assert_eq!(items.len(), 1);
    assert!(matches!(&items[0], Err(Error::InvalidInput(_))));
    assert_eq!(items[0].as_ref().unwrap_err().attempts(), 0);
    assert_eq!(server.count(), 0);
}

/// The envelope's `pagination` is documented with what the paging streams read of it (the
/// runtime's keys), marked as the spec's assumption: the interface description shows no
/// content.
#[test]
fn the_envelope_docs_say_which_pagination_keys_the_client_reads_as_assumed() {
    let api = mrds_spec::load_spec(&mrds_tests::workspace_root().join("spec")).unwrap();
    let field = api
        .envelope
        .fields
        .iter()
        .find(|f| f.wire == "pagination")
        .expect("the envelope has a pagination field");
    for key in mrds_runtime::client::PAGINATION_KEYS {
        assert!(
            field.doc.contains(&format!("`{key}`")),
            "the doc names `{key}`: {}",
            field.doc
        );
    }
    assert!(
        matches!(&field.provenance, mrds_spec::model::Provenance::Assumed(why) if why.contains("does not show")),
        "{:?}",
        field.provenance
    );
    // And the generated model crate carries it into the field's docs.
    let envelope = std::fs::read_to_string(
        mrds_tests::workspace_root().join("crates/mrds-model/src/envelope.rs"),
    )
    .unwrap();
    for key in mrds_runtime::client::PAGINATION_KEYS {
        assert!(envelope.contains(&format!("`{key}`")), "{envelope}");
    }
}

/// With `skip_undecodable_records`, a record that does not decode is left out of its page, and
/// the stream still advances past it: no record is asked for twice or lost.
#[tokio::test]
async fn a_record_left_out_still_advances_the_offset() {
    let server = serve(move |_, seen| {
        let offset: i64 = seen
            .query("offset")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let end = 5.min(offset + 2);
        let rows: Vec<Value> = (offset..end)
            .map(|i| {
                let mut row = commentary_row(i);
                if i == 1 {
                    row[label()] = Value::Null;
                }
                row
            })
            .collect();
        http(
            200,
            &[],
            &json!({"success": true, "request_id": "r", "data": rows}).to_string(),
        )
    })
    .await;
    let client = mrds_client::Client::builder(&server.root)
        .api_key(super::client::KEY)
        .skip_undecodable_records(true)
        .build()
        .unwrap();
    let rows: Vec<PersonCommentary> = client
        .person_commentary_stream(&params(2))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        quotes(&rows),
        ["Remark 0.", "Remark 2.", "Remark 3.", "Remark 4."]
    );
    assert_eq!(offsets(&server), ["0", "2", "4", "5"]);
    assert_eq!(client.drift().findings()[0].observed.kind(), "field.null");
}
