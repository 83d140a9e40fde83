//! `sqs-sim serve` as an axum application: the [`Router`] of the control API, the live view and
//! the SQS endpoint, behind the browser guard ([`crate::guard`]), CORS and the request log; and
//! the listener it is served on.

use crate::addressing::Addressing;
use crate::declared::Declared;
use crate::guard::{Guard, GuardLayer, Guarded};
use crate::log::{Calls, CallsLayer};
use crate::sqs::{self, MAX_BODY};
use crate::state::Shared;
use crate::store::Fsync;
use crate::ui::Ui;
use crate::{control, live};
use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::header::HOST;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Extension;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tower::ServiceBuilder;

/// What `sqs-sim serve` is started with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// The account queues belong to.
    pub account_id: String,
    /// The region in queue ARNs.
    pub region: String,
    /// Virtual seconds per wall second.
    pub speed: f64,
    /// The playground's files, for the live view at `/`.
    pub ui: Ui,
    /// The engine's seed (`None`: drawn from the clock).
    pub seed: Option<u64>,
    /// The queues to create before listening.
    pub queues: Declared,
    /// Origins browsers may call from besides the server's own and local ones (`*`: any).
    pub cors_origins: Vec<String>,
    /// `Host` names served besides loopback ones while bound to loopback.
    pub allowed_hosts: Vec<String>,
    /// The data directory state is kept in across restarts (`None`: in memory only).
    pub data_dir: Option<std::path::PathBuf>,
    /// When the data directory's journal is synced.
    pub fsync: Fsync,
}

impl Default for Config {
    /// `sqs-sim serve`'s defaults.
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 9324,
            account_id: "000000000000".into(),
            region: "us-east-1".into(),
            speed: 1.0,
            ui: Ui::default(),
            seed: None,
            queues: Declared::default(),
            cors_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            data_dir: None,
            fsync: Fsync::Second,
        }
    }
}

/// What every handler shares: the engine and its clock, how queues are named, the guard.
pub struct App {
    /// The engine, its clock and its record.
    pub shared: Arc<Shared>,
    /// Queue URLs and ARNs as clients see them.
    pub addressing: Addressing,
    /// The playground's files.
    pub ui: Ui,
    /// Who may call.
    pub guard: Guard,
    /// When the server started (for `/health`).
    pub started: Instant,
    /// Salts request ids ([`App::request_id`]).
    salt: u64,
    requests: AtomicU64,
}

impl App {
    /// The application `config` describes, its declared queues created; a queue the engine
    /// refuses is the error.
    pub fn new(config: &Config) -> Result<Arc<App>, String> {
        let seed = config.seed.unwrap_or_else(|| {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos & crate::MAX_SEED
        });
        let shared = Arc::new(match &config.data_dir {
            Some(dir) => {
                let (shared, report) = Shared::open(dir, config.fsync, seed, config.speed)
                    .map_err(|e| format!("--data-dir: {e}"))?;
                println!("{report}");
                shared
            }
            None => Shared::new(seed, config.speed),
        });
        if !config.queues.is_empty() {
            shared.with(|state| state.declare(&config.queues))?;
        }
        Ok(Arc::new(App {
            shared,
            addressing: Addressing::new(&config.account_id, &config.region),
            ui: config.ui.clone(),
            guard: Guard::new(&config.host, &config.cors_origins, &config.allowed_hosts),
            started: Instant::now(),
            salt: config
                .seed
                .unwrap_or_else(|| uuid::Uuid::new_v4().as_u64_pair().0),
            requests: AtomicU64::new(0),
        }))
    }

    /// A fresh request id, shaped as AWS's (a UUID): a counter spread by SplitMix64 (one draw
    /// from a generator seeded with it), salted by the seed (the same ids in every run) or by a
    /// random salt drawn at the start. Counter-based, so concurrent requests share no state.
    pub fn request_id(&self) -> String {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        let spread = |x: u64| SplitMix64::seed_from_u64(x).next_u64();
        let (low, high) = (spread(self.salt ^ n), spread(!self.salt ^ n));
        let bytes = (u128::from(high) << 64 | u128::from(low)).to_le_bytes();
        uuid::Builder::from_random_bytes(bytes)
            .into_uuid()
            .to_string()
    }
}

/// The origin queue URLs are built on: the request's `Host`.
pub fn base_url(headers: &HeaderMap) -> String {
    let host = headers.get(HOST).and_then(|h| h.to_str().ok());
    format!("http://{}", host.unwrap_or("127.0.0.1"))
}

/// The routes: control routes, the live view's, and the SQS endpoint for everything else.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/health", get(control::health))
        .route("/_sqs-sim/state", get(control::state))
        .route("/_sqs-sim/clock", post(control::clock))
        .route("/_sqs-sim/reset", post(control::reset))
        .route("/_sqs-sim/queues", get(control::queues))
        .route("/_sqs-sim/queues/{name}/messages", get(control::messages))
        .route("/_sqs-sim/events", get(live::events))
        .route("/_sqs-sim/call", post(live::page_call))
        .fallback(sqs::handle)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// The whole service: a request passes the log, then the guard (and CORS when it carries an
/// `Origin`), then the [`router`]. The layers wrap the router once, rather than each of its routes
/// (`Router::layer`), so that a request does not clone them.
pub type Service = Calls<Guarded<Router>>;

/// [`Service`] for `app`.
pub fn service(app: Arc<App>) -> Service {
    ServiceBuilder::new()
        .layer(CallsLayer)
        .layer(GuardLayer::new(app.clone()))
        .service(router(app))
}

/// Creates the declared queues, then listens on the configured address; `ready` is told the
/// bound address once it accepts connections. Returns on SIGTERM or Ctrl-C.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let app = App::new(&config)?;
    let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port))
        .await
        .map_err(|e| format!("{}:{}: {e}", config.host, config.port))?;
    let clock = app.shared.clone();
    tokio::spawn(async move { clock.drive_clock().await });
    ready(listener.local_addr().map_err(|e| e.to_string())?);
    let service = service(app);
    // hyper's HTTP/1.1 connection, one task each (as axum's serve-with-hyper example): axum::serve
    // adds version detection and a shutdown watch per connection that this server does not use.
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return Ok(()),
        };
        let Ok((stream, peer)) = accepted else {
            continue;
        };
        // Answers are small and clients wait for each: no Nagle delay.
        let _ = stream.set_nodelay(true);
        let service = ServiceBuilder::new()
            .map_request(|request: Request<Incoming>| request.map(Body::new))
            .layer(Extension(ConnectInfo(peer)))
            .service(service.clone());
        let service = TowerToHyperService::new(service);
        tokio::spawn(async move {
            // A connection that breaks off is the client's business.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// SIGTERM (`docker stop`, also when the server is a container's process 1) or Ctrl-C. Stopping
/// then loses nothing: every answered call's record was written before its answer.
async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => tokio::select! {
                _ = interrupt => {}
                _ = terminate.recv() => {}
            },
            Err(_) => drop(interrupt.await),
        }
    }
    #[cfg(not(unix))]
    drop(interrupt.await);
}
