//! Share, embed and export: sessions that travel as links and files.

pub mod bridge;
pub mod browser;
pub mod embed;
pub mod export;
mod inflate;
pub mod launch;
pub mod panel;
pub mod permalink;
pub mod session;
pub mod snippets;
