// The fastcdc-rs side of test/bench/peers/run.sh: times fastcdc-rs's v2020 chunker (its in-memory `FastCDC`
// iterator, normalization level 1, seed 0) over a file held in memory, as chunker_speed.cpp times idcodec's:
//
//     fastcdc_rs_speed FILE MIN_SIZE AVG_SIZE MAX_SIZE ROUNDS
//
// prints "NANOSECONDS CHUNKS", the best of ROUNDS passes. run.sh builds it offline against a fastcdc-rs source
// tree given to it; nothing of fastcdc-rs is part of this repository.
use std::time::{Duration, Instant};

fn argument(args: &[String], i: usize) -> u32 {
    args[i].parse().unwrap_or_else(|e| {
        eprintln!("fastcdc_rs_speed: bad argument {:?}: {}", args[i], e);
        std::process::exit(2)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 6 {
        eprintln!("usage: fastcdc_rs_speed FILE MIN_SIZE AVG_SIZE MAX_SIZE ROUNDS");
        std::process::exit(2);
    }
    let data = std::fs::read(&args[1]).unwrap_or_else(|e| {
        eprintln!("fastcdc_rs_speed: {}", e);
        std::process::exit(2)
    });
    let (min, avg, max, rounds) =
        (argument(&args, 2), argument(&args, 3), argument(&args, 4), argument(&args, 5));
    let mut best = Duration::MAX;
    let mut chunks = 0usize;
    for _ in 0..rounds {
        let start = Instant::now();
        let mut n = 0usize;
        let mut hashes = 0u64;
        // u32 sizes in fastcdc-rs 3.x, usize in 4.x: converted to whichever this version takes
        let sizes = (min.try_into().unwrap(), avg.try_into().unwrap(), max.try_into().unwrap());
        for chunk in fastcdc::v2020::FastCDC::new(&data, sizes.0, sizes.1, sizes.2) {
            hashes ^= chunk.hash;
            n += 1;
        }
        std::hint::black_box(hashes);
        let elapsed = start.elapsed();
        if elapsed < best {
            best = elapsed;
            chunks = n;
        }
    }
    println!("{} {}", best.as_nanos(), chunks);
}
