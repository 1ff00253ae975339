//! Data-driven end-to-end tests live in `tests/`.
