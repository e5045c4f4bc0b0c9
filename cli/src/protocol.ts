// The protocol version the CLI is built for (spec/served.json, through generated/current.ts): its typed
// client, its params validators, and the spec folder scripts/build.ts embeds.
export {
  connect,
  IdeaClosedError,
  IdeaProtocolError,
  IdeaTimeoutError,
  type IdeaClient,
} from '../../generated/current';
export { FRAMES } from '../../generated/current';
export { CURRENT_VERSION as PROTOCOL_VERSION } from '../../generated/current';
