//! The language server as an editor uses it: a scripted client over an in-memory connection
//! (`lsp_server::Connection::memory`), the server's loop on a thread, the spec in a scratch
//! directory.

mod broken;
mod client;
mod features;
mod property;
mod rename_all;
