//! The reasoners' tables are keyed by small integers (term ids, index keys), for which the standard
//! library's SipHash costs more than the joins it serves; the keys come from the game description,
//! never from an adversary at run time, so flooding resistance is not needed. The hashers live in
//! [`game_trait::hash`]; this module names the ones the reasoners use.

pub(crate) use game_trait::hash::{splitmix64 as mix, FastMap, FastSet};
