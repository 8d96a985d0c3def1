//! Othello on bitboards for gametree (work in progress).
#![deny(missing_docs)]
