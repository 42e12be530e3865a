//! ACP dialect (see issue 4).
