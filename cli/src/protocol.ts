// The protocol version the CLI is built for (one line to change on a bump): its typed client, its params
// validators, and the spec folder scripts/build.ts embeds.
export { connect, IdeaClosedError, IdeaProtocolError, IdeaTimeoutError, type IdeaClient } from "../../generated/v0.1.6/client";
export { FRAMES } from "../../generated/v0.1.6/frames";
export { PROTOCOL_VERSION } from "../../generated/v0.1.6/topics";
