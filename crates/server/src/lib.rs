//! colonyd.
