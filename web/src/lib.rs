//! Placeholder member: the Leptos playground arrives with its own issue.
//! Nothing here is exported yet.
