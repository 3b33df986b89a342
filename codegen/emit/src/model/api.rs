//! `api.rs`: version, base path, key header, the endpoint table and the change history.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::{deprecation, docs, prose, with_provenance};
use mrds_spec::model::{Api, AuthMode, ChangeAction};

pub(super) fn file(api: &Api) -> TokenStream {
    let version = &api.api_version;
    let base = &api.base_path;
    let header = &api.auth.header;
    let header_doc = docs(&with_provenance(
        format!(
            "The header carrying the API key.\n\n{}",
            prose(&api.auth.doc)
        ),
        &api.auth.provenance,
    ));
    let consts = api.endpoints.iter().map(|e| {
        let name = format_ident!("{}", e.names.constant);
        let id = &e.id;
        let path = e.path.to_string();
        let summary = &e.summary;
        let method = e.method.as_str();
        let method_expr = crate::method(e.method);
        let auth = match e.auth {
            AuthMode::Required => quote!(Auth::Required),
            AuthMode::Optional => quote!(Auth::Optional),
        };
        let doc = docs(&format!(
            "`{method} {path}`: {} Parameters: [`crate::params::{}`].",
            prose(summary),
            e.names.params_type
        ));
        let removed = match &e.removed {
            Some(r) => {
                let (date, v) = (&r.date, &r.version);
                quote!(Some(Removal { date: #date, version: #v }))
            }
            None => quote!(None),
        };
        let (deprecated, _) = deprecation(e.removed.as_ref());
        let idempotent = e.idempotent;
        quote! {
            #doc
            #deprecated
            pub const #name: Endpoint = Endpoint {
                id: #id,
                method: #method_expr,
                path: #path,
                summary: #summary,
                auth: #auth,
                removed: #removed,
                idempotent: #idempotent,
            };
        }
    });
    let all = api
        .endpoints
        .iter()
        .map(|e| format_ident!("{}", e.names.constant));
    let params = api.endpoints.iter().map(|e| {
        let name = format_ident!("{}", e.names.params_type);
        match e.body {
            Some(_) => quote!(visitor.visit_with_body::<crate::params::#name>();),
            None => quote!(visitor.visit::<crate::params::#name>();),
        }
    });
    let history = api.history.iter().map(|h| {
        let date = &h.date;
        let versions = &h.versions;
        let changes = h.changes.iter().map(|c| {
            let action = match c.action {
                ChangeAction::Added => quote!(ChangeAction::Added),
                ChangeAction::Removed => quote!(ChangeAction::Removed),
            };
            let (m, p) = (crate::method(c.method), &c.path);
            quote!(Change { action: #action, method: #m, path: #p })
        });
        quote!(HistoryEntry { date: #date, versions: &[#(#versions),*], changes: &[#(#changes),*] })
    });
    quote! {
        //! Version, base path, the endpoint table and the change history.

        pub use mrds_runtime::{Auth, Change, ChangeAction, Endpoint, HistoryEntry, Protocol, Removal};

        /// Version of the interface description: the provider's version of the service's
        /// interface (`api_version` in the spec), not this crate's version.
        pub const API_VERSION: &str = #version;
        /// The path every endpoint path is appended to.
        pub const BASE_PATH: &str = #base;
        #header_doc
        pub const AUTH_HEADER: &str = #header;
        /// Base path, key header and the answers' shapes, as the server and the client use
        /// them.
        pub const PROTOCOL: Protocol = Protocol {
            base_path: BASE_PATH,
            auth_header: AUTH_HEADER,
            shapes: &crate::shapes::SHAPES,
        };

        #(#consts)*

        /// Every endpoint of the spec, sorted by id.
        #[allow(deprecated)]
        pub const ENDPOINTS: &[Endpoint] = &[#(#all),*];

        /// The change history (endpoint additions and removals), newest first.
        pub const HISTORY: &[HistoryEntry] = &[#(#history),*];

        /// Something done with the parameter type of every endpoint: [`visit_requests`] calls
        /// [`RequestVisitor::visit`] once per endpoint without a body, and
        /// [`RequestVisitor::visit_with_body`] once per endpoint with one. Code that reaches
        /// every endpoint through its types (calling each one with a client, decoding each
        /// one's records) uses it instead of a list of its own, so an endpoint added to the
        /// spec is reached with no change, whatever its method.
        pub trait RequestVisitor {
            /// Called with the parameter type `P` of one endpoint (`P::ENDPOINT` says which;
            /// `P::Record` is its record).
            fn visit<P>(&mut self)
            where
                P: mrds_runtime::Request + Clone + std::fmt::Debug + Send + Sync + 'static;

            /// Called with the parameter type `P` of one endpoint that takes a body (`P::Body`
            /// is its record); by default, as [`visit`](Self::visit).
            fn visit_with_body<P>(&mut self)
            where
                P: mrds_runtime::WithBody + Clone + std::fmt::Debug + Send + Sync + 'static,
                P::Body: Clone + std::fmt::Debug + Send + Sync + 'static,
            {
                self.visit::<P>()
            }
        }

        /// Calls `visitor` with the parameter type of every endpoint, in the order of
        /// [`ENDPOINTS`].
        #[allow(deprecated)]
        pub fn visit_requests(visitor: &mut impl RequestVisitor) {
            #(#params)*
        }
    }
}
