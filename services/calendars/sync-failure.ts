/**
 * A sync that could not finish, with the human sentence the connection shows as its
 * status_message ("the server refused the password"). Nothing cached changes when one is thrown.
 */
export class SyncFailure extends Error {}
