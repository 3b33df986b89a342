//! The one router of requests to endpoints: a method and a path to the endpoint that serves
//! them, with its path parameters.
//!
//! Every part that needs to know which endpoint a request is for asks it: the generated
//! server, the sample server's journal, scenarios and `Prefer` header, the checking proxy and
//! what it notices. They agree because there is one router.
//!
//! The most specific template wins, as in axum's router: templates are compared segment by
//! segment from the left, and at the first segment where one has a literal and the other a
//! placeholder, the literal wins (`/v1/persons/search` before `/v1/persons/{person_id}`, and
//! `/v1/persons/{person_id}/commentary` before `/v1/persons/{source}/{person_id}`). The path
//! decides the template first; then the method picks the endpoint among those of that
//! template, `HEAD` answered as `GET`. A path that some template fits but no endpoint of it
//! answers with the method is [`Routed::MethodNotAllowed`], with the methods it answers.
//!
//! Two endpoints of one template (placeholder names aside) and one method would be
//! indistinguishable; the generator refuses such a spec when it loads.

use crate::api::{Endpoint, Method};

/// One segment of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    /// Fixed text (compared with the request's segment as it travels, percent-encoded).
    Literal(&'static str),
    /// A `{name}` placeholder: any non-empty segment.
    Param(&'static str),
}

impl Segment {
    fn parse(text: &'static str) -> Self {
        match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            Some(name) => Segment::Param(name),
            None => Segment::Literal(text),
        }
    }

    /// The order of specificity: a literal before a placeholder, then literals by text.
    fn rank(self) -> (u8, &'static str) {
        match self {
            Segment::Literal(text) => (0, text),
            Segment::Param(_) => (1, ""),
        }
    }

    fn fits(self, given: &str) -> bool {
        match self {
            Segment::Literal(text) => text == given,
            Segment::Param(_) => !given.is_empty(),
        }
    }
}

/// One endpoint's template, parsed once.
#[derive(Clone, Debug)]
struct Route {
    /// Its place in the endpoint table.
    index: usize,
    endpoint: &'static Endpoint,
    segments: Vec<Segment>,
}

impl Route {
    /// The key routes are sorted by: the number of segments, then each segment's rank from
    /// the left (so the most specific template of a path comes first, and the endpoints of
    /// one template are neighbours), then the method.
    fn key(&self) -> (usize, Vec<(u8, &'static str)>, Method) {
        (
            self.segments.len(),
            self.segments.iter().map(|s| s.rank()).collect(),
            self.endpoint.method,
        )
    }

    fn same_template(&self, other: &Route) -> bool {
        self.segments.len() == other.segments.len()
            && (self.segments.iter().zip(&other.segments)).all(|(a, b)| a.rank() == b.rank())
    }

    fn fits(&self, given: &[&str]) -> bool {
        self.segments.len() == given.len()
            && (self.segments.iter().zip(given)).all(|(s, g)| s.fits(g))
    }
}

/// The endpoints of one spec, ready to route requests to (built once, then shared).
#[derive(Clone, Debug)]
pub struct Routes {
    /// Most specific template first; the endpoints of one template side by side.
    routes: Vec<Route>,
}

/// Where a request goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Routed<'p> {
    /// The endpoint that serves it.
    Endpoint(Matched<'p>),
    /// Endpoints serve the path, but none with the request's method: the methods they answer
    /// (`HEAD` included where `GET` is), for `Allow`.
    MethodNotAllowed(Vec<&'static str>),
    /// No endpoint serves the path (or it is not below the base path).
    NotFound,
}

/// The endpoint a request goes to, and its path parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matched<'p> {
    /// The endpoint's place in the table the routes were built from (the generated
    /// `ENDPOINTS`).
    pub index: usize,
    /// The endpoint.
    pub endpoint: &'static Endpoint,
    /// Its path parameters in the order of the template: each placeholder's name and the
    /// segment that fills it, still percent-encoded (decode with
    /// [`crate::text::decode_segment`]).
    pub params: Vec<(&'static str, &'p str)>,
}

impl Routed<'_> {
    /// The endpoint, when one serves the request.
    pub fn endpoint(&self) -> Option<&'static Endpoint> {
        match self {
            Routed::Endpoint(m) => Some(m.endpoint),
            _ => None,
        }
    }
}

impl Routes {
    /// The routes of `endpoints` (the generated `ENDPOINTS`).
    pub fn new(endpoints: &'static [Endpoint]) -> Self {
        let mut routes: Vec<Route> = (endpoints.iter().enumerate())
            .map(|(index, endpoint)| Route {
                index,
                endpoint,
                segments: endpoint
                    .path
                    .split('/')
                    .skip(1)
                    .map(Segment::parse)
                    .collect(),
            })
            .collect();
        routes.sort_by(|a, b| a.key().cmp(&b.key()).then(a.index.cmp(&b.index)));
        Self { routes }
    }

    /// Where the request `method path` goes; `path` is the whole path of the request (without
    /// its query), which must start with `base_path` (`/api`).
    pub fn route<'p>(&self, base_path: &str, method: &str, path: &'p str) -> Routed<'p> {
        match path.strip_prefix(base_path) {
            Some(below) if below.starts_with('/') => self.route_below(method, below),
            _ => Routed::NotFound,
        }
    }

    /// Where the request `method path` goes; `path` is below the base path (`/v1/...`).
    pub fn route_below<'p>(&self, method: &str, path: &'p str) -> Routed<'p> {
        let Some(given) = path.strip_prefix('/') else {
            return Routed::NotFound;
        };
        let given: Vec<&'p str> = given.split('/').collect();
        let Some(first) = self.routes.iter().position(|r| r.fits(&given)) else {
            return Routed::NotFound;
        };
        let template = &self.routes[first];
        let same = self.routes[first..]
            .iter()
            .take_while(|r| r.same_template(template));
        let wanted = match method {
            "HEAD" => Some(Method::Get),
            other => Method::parse(other),
        };
        let mut allow = Vec::new();
        for route in same {
            let m = route.endpoint.method;
            if Some(m) == wanted {
                let params = (route.segments.iter().zip(&given))
                    .filter_map(|(s, g)| match s {
                        Segment::Param(name) => Some((*name, *g)),
                        Segment::Literal(_) => None,
                    })
                    .collect();
                return Routed::Endpoint(Matched {
                    index: route.index,
                    endpoint: route.endpoint,
                    params,
                });
            }
            allow.push(m.as_str());
            if m == Method::Get {
                allow.push("HEAD");
            }
        }
        Routed::MethodNotAllowed(allow)
    }

    /// The endpoints, most specific template first.
    pub fn endpoints(&self) -> impl Iterator<Item = &'static Endpoint> + '_ {
        self.routes.iter().map(|r| r.endpoint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Auth;

    const fn endpoint(id: &'static str, method: Method, path: &'static str) -> Endpoint {
        Endpoint {
            id,
            method,
            path,
            summary: "",
            auth: Auth::Required,
            removed: None,
            idempotent: method.idempotent(),
        }
    }

    /// Listed so that the order of the table and of the ids is the least specific first.
    static TABLE: &[Endpoint] = &[
        endpoint(
            "a_person_by_source",
            Method::Get,
            "/v1/persons/{source}/{person_id}",
        ),
        endpoint(
            "b_commentary",
            Method::Get,
            "/v1/persons/{person_id}/commentary",
        ),
        endpoint("c_person", Method::Get, "/v1/persons/{person_id}"),
        endpoint("d_search", Method::Get, "/v1/persons/search"),
        endpoint(
            "e_handle_put",
            Method::Put,
            "/v1/feeds/{platform}/handles/{handle}",
        ),
        endpoint(
            "f_handle_delete",
            Method::Delete,
            "/v1/feeds/{platform}/handles/{handle}",
        ),
        endpoint("g_handles", Method::Post, "/v1/feeds/{platform}/handles"),
        endpoint("h_deep", Method::Get, "/v1/a/{x}/d"),
        endpoint("i_deep", Method::Get, "/v1/a/b/c"),
    ];

    fn id(routed: Routed<'_>) -> String {
        match routed {
            Routed::Endpoint(m) => format!(
                "{} {}",
                m.endpoint.id,
                (m.params.iter().map(|(n, v)| format!("{n}={v}")))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Routed::MethodNotAllowed(allow) => format!("405 {}", allow.join(",")),
            Routed::NotFound => "404".into(),
        }
    }

    #[test]
    fn the_most_specific_template_wins_left_to_right() {
        let routes = Routes::new(TABLE);
        let r = |method, path| id(routes.route("/api", method, path));
        assert_eq!(r("GET", "/api/v1/persons/search"), "d_search ");
        assert_eq!(r("GET", "/api/v1/persons/p1"), "c_person person_id=p1");
        assert_eq!(
            r("GET", "/api/v1/persons/p1/commentary"),
            "b_commentary person_id=p1"
        );
        assert_eq!(
            r("GET", "/api/v1/persons/congress/17"),
            "a_person_by_source source=congress,person_id=17"
        );
        // A literal first, then a placeholder: a template that does not fit gives way.
        assert_eq!(r("GET", "/api/v1/a/b/c"), "i_deep ");
        assert_eq!(r("GET", "/api/v1/a/b/d"), "h_deep x=b");
        assert_eq!(r("HEAD", "/api/v1/a/b/d"), "h_deep x=b");
    }

    #[test]
    fn the_method_picks_among_the_endpoints_of_one_template() {
        let routes = Routes::new(TABLE);
        let r = |method, path| id(routes.route("/api", method, path));
        assert_eq!(
            r("PUT", "/api/v1/feeds/x/handles/h%20i"),
            "e_handle_put platform=x,handle=h%20i"
        );
        assert_eq!(
            r("DELETE", "/api/v1/feeds/x/handles/h"),
            "f_handle_delete platform=x,handle=h"
        );
        assert_eq!(r("GET", "/api/v1/feeds/x/handles/h"), "405 PUT,DELETE");
        assert_eq!(r("GET", "/api/v1/feeds/x/handles"), "405 POST");
        assert_eq!(r("POST", "/api/v1/persons/search"), "405 GET,HEAD");
        assert_eq!(r("FROB", "/api/v1/persons/search"), "405 GET,HEAD");
    }

    #[test]
    fn paths_no_template_fits() {
        let routes = Routes::new(TABLE);
        for path in [
            "/api/v1/persons",
            "/api/v1/persons/",
            "/api/v1/persons//commentary",
            "/api/v1/persons/p1/commentary/",
            "/apiv1/persons/search",
            "/v1/persons/search",
            "/api",
            "",
        ] {
            assert_eq!(
                routes.route("/api", "GET", path),
                Routed::NotFound,
                "{path}"
            );
        }
    }
}
