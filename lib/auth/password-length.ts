// How long a staff password must be: shown by the password forms in the browser, enforced by the
// schemas and the password policy on the server. A module of its own so that a form which only
// shows the number does not load zod with the schemas.
export const PASSWORD_MIN = 12;
