//! The embedded colony game.
