/**
 * The OAuth 2 grant types (flows), with ADK's names and values, as an OpenAPI security scheme's `flows` name
 * them. toolsmith runs the authorization-code grant with PKCE (`AuthorizationCodeFlow`) and, for OpenAPI
 * toolsets, the client-credentials grant; the enum names all four, as ADK's does.
 *
 * @example
 * ```ts
 * import { OAuthGrantType } from "toolsmith";
 *
 * OAuthGrantType.AUTHORIZATION_CODE; // "authorization_code"
 * ```
 */
export enum OAuthGrantType {
  /** A client acting for itself, with its id and secret. */
  CLIENT_CREDENTIALS = "client_credentials",
  /** A person signs in and the client exchanges the code it gets back. */
  AUTHORIZATION_CODE = "authorization_code",
  /** The token comes back in the redirect itself (deprecated by OAuth 2.1). */
  IMPLICIT = "implicit",
  /** The client sends the person's user name and password (deprecated by OAuth 2.1). */
  PASSWORD = "password",
}
