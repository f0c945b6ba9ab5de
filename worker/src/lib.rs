//! Placeholder member: the edge mirror Worker arrives with its own issue.
//! Nothing here is exported yet.
