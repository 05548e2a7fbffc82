/** A call that failed in a worker: the error lives with planmode's other errors. */
export { isRemoteCallError, RemoteCallError } from '../errors.js';
