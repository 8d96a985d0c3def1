//! gametree's search engine (work in progress).
#![deny(missing_docs)]
