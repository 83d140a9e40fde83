fn main() {
    let n: u64 = std::env::args().nth(1).map_or(200_000, |a| a.parse().unwrap());
    let start = std::time::Instant::now();
    let clock = move || start.elapsed().as_secs_f64();
    for batching in [sqs_engine::bench::Batching::Single, sqs_engine::bench::Batching::Ten] {
        let r = sqs_engine::bench::measure(n, batching, 1, clock);
        println!("{batching:?}: {:.0}/s", r.lifecycles_per_sec);
    }
}
