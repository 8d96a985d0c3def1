//! Structured mutations of a seed text: byte flips, truncation, splicing with another seed,
//! insertion of the target's tokens and of deep nesting, deletion and duplication of ranges.

use rand::Rng;
use rand_pcg::Pcg64;

/// How deep the rare nesting mutation goes: far beyond any stack a recursive parser could use.
pub const DEEP_NESTING: usize = 100_000;

/// Numbers at the edges of the integer types, where parsers overflow.
const EDGE_NUMBERS: [&str; 10] = [
    "0",
    "-1",
    "255",
    "256",
    "-2147483648",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e309",
    "NaN",
];

/// The input `rng` derives from `seeds`: one seed (or, rarely, nothing) with one to four mutations.
pub fn mutate(rng: &mut Pcg64, seeds: &[String], tokens: &[&str], opener: &str) -> String {
    let mut bytes = if rng.gen_ratio(1, 64) {
        Vec::new()
    } else {
        seeds[rng.gen_range(0..seeds.len())].as_bytes().to_vec()
    };
    for _ in 0..rng.gen_range(1..=4) {
        one_mutation(rng, &mut bytes, seeds, tokens, opener);
    }
    // The parsers take `&str`; invalid UTF-8 becomes U+FFFD, itself a good test.
    String::from_utf8_lossy(&bytes).into_owned()
}

fn one_mutation(
    rng: &mut Pcg64,
    bytes: &mut Vec<u8>,
    seeds: &[String],
    tokens: &[&str],
    opener: &str,
) {
    let at = rng.gen_range(0..=bytes.len());
    match rng.gen_range(0..100) {
        0..=24 if !bytes.is_empty() => {
            let i = rng.gen_range(0..bytes.len());
            bytes[i] = flip(rng, bytes[i]);
        }
        25..=34 => bytes.truncate(at),
        35..=44 => {
            let other = seeds[rng.gen_range(0..seeds.len())].as_bytes();
            let (from, to) = range(rng, other.len());
            bytes.splice(at..at, other[from..to].iter().copied());
        }
        45..=69 if !tokens.is_empty() => {
            let token = tokens[rng.gen_range(0..tokens.len())];
            bytes.splice(at..at, token.bytes());
        }
        70..=77 => {
            let number = EDGE_NUMBERS[rng.gen_range(0..EDGE_NUMBERS.len())];
            bytes.splice(at..at, number.bytes());
        }
        78..=86 => {
            let (from, to) = range(rng, bytes.len());
            bytes.drain(from..to);
        }
        87..=95 => {
            let (from, to) = range(rng, bytes.len());
            let copy = bytes[from..to].to_vec();
            bytes.splice(at..at, copy);
        }
        // Rare: each such input costs a few hundred kilobytes of parsing.
        96 => bytes
            .splice(at..at, opener.repeat(DEEP_NESTING).into_bytes())
            .for_each(drop),
        _ => bytes
            .splice(at..at, opener.repeat(rng.gen_range(1..300)).into_bytes())
            .for_each(drop),
    }
}

/// A random byte, a bit flip, or a byte that matters to text parsers.
fn flip(rng: &mut Pcg64, byte: u8) -> u8 {
    const SPECIAL: &[u8] = b"()[]{},:;=.?\"\\ \n\t-+0123456789%&#";
    match rng.gen_range(0..3) {
        0 => rng.gen(),
        1 => byte ^ (1 << rng.gen_range(0..8)),
        _ => SPECIAL[rng.gen_range(0..SPECIAL.len())],
    }
}

/// A random sub-range of `0..len`, usually short.
fn range(rng: &mut Pcg64, len: usize) -> (usize, usize) {
    let from = rng.gen_range(0..=len);
    let span = if rng.gen_ratio(1, 8) { len } else { 64 };
    (from, (from + rng.gen_range(0..=span)).min(len))
}
