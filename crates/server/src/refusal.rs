//! What a client is told when the server refuses a request: an error code the client acts
//! on and a text for people (never an internal error's text: those are logged with an id,
//! and the text quotes the id).

use cannonade_wire::ErrorCode;

/// A refusal: the code and text of the error event.
pub type Refusal = (ErrorCode, String);
