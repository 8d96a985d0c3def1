//! scsp-mac-ucb's integration tests, one module per concern, built as one test binary: every
//! binary links the libraries again and instantiates their generic code again.

mod common;

mod deadline;
mod json;
mod player;
mod round_reading;
mod rounds;
mod sequence;
mod solvers;
