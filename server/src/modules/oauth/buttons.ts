import { eq } from 'drizzle-orm';
import { systemSettings } from '../../../../db/schema/index.js';
import type { AppConfig } from '../../config/schema.js';
import type { Database } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';

/**
 * The OAuth buttons of LoginConfig. Two lists must agree (SPEC "Callback rules" 5): the providers
 * enabled on the server (`OAuth__Providers__*`) and the buttons stored as the runtime setting
 * `saas.auth.oauth.providers` (a JSON array of `{name, displayName}`, editable without a restart).
 * A name in one list only is reported at start-up and left out of LoginConfig, instead of a
 * button that leads nowhere or a provider nobody can reach. When the setting does not exist yet,
 * the start-up stores one button per enabled provider.
 */

export const OAUTH_BUTTONS_KEY = 'saas.auth.oauth.providers';

export interface OAuthButton {
  name: string;
  displayName: string;
}

const TYPE_NAMES: Record<string, string> = {
  github: 'GitHub',
  google: 'Google',
  'microsoft-entra-id': 'Microsoft',
  gitlab: 'GitLab',
  oidc: 'OpenID Connect',
};

function enabledProviders(config: AppConfig): Map<string, string> {
  return new Map(
    Object.entries(config.OAuth.Providers)
      .filter(([, p]) => p.Enabled)
      .map(([name, p]) => [name, p.DisplayName ?? TYPE_NAMES[p.Type] ?? name]),
  );
}

/** Parses the stored buttons: an array of `{name, displayName}` or of names; undefined when unreadable. */
export function parseButtons(value: string): OAuthButton[] | undefined {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const buttons: OAuthButton[] = [];
    for (const item of parsed) {
      const name =
        typeof item === 'string'
          ? item
          : item && typeof item === 'object'
            ? (item as { name?: unknown }).name
            : undefined;
      if (typeof name !== 'string' || !name.trim()) continue;
      const displayName =
        item && typeof item === 'object' ? (item as { displayName?: unknown }).displayName : undefined;
      buttons.push({
        name: name.trim().toLowerCase(),
        displayName: typeof displayName === 'string' ? displayName : '',
      });
    }
    return buttons;
  } catch {
    return undefined;
  }
}

/** The buttons LoginConfig shows: stored and enabled on the server; an empty display name is the provider's. */
export function loginButtons(config: AppConfig, stored: string | undefined): OAuthButton[] {
  const enabled = enabledProviders(config);
  const buttons = stored === undefined ? [] : (parseButtons(stored) ?? []);
  return buttons
    .filter((b) => enabled.has(b.name))
    .map((b) => ({ name: b.name, displayName: b.displayName || enabled.get(b.name)! }));
}

/** The two lists' differences. */
export function buttonMismatch(
  config: AppConfig,
  stored: OAuthButton[],
): { withoutButton: string[]; withoutProvider: string[] } {
  const enabled = enabledProviders(config);
  const names = new Set(stored.map((b) => b.name));
  return {
    withoutButton: [...enabled.keys()].filter((n) => !names.has(n)),
    withoutProvider: [...names].filter((n) => !enabled.has(n)),
  };
}

/** Start-up: stores the default buttons when the setting is absent, and reports any mismatch. */
export async function syncOAuthButtons(deps: {
  db: Database;
  config: AppConfig;
  logger: Logger;
}): Promise<{ withoutButton: string[]; withoutProvider: string[] }> {
  const { db, config, logger } = deps;
  let [row] = await db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, OAUTH_BUTTONS_KEY));
  if (!row) {
    const defaults = [...enabledProviders(config)].map(([name, displayName]) => ({ name, displayName }));
    if (defaults.length === 0) return { withoutButton: [], withoutProvider: [] };
    // Two nodes starting together: the first one's list stands.
    await db
      .insert(systemSettings)
      .values({ settingKey: OAUTH_BUTTONS_KEY, settingValue: JSON.stringify(defaults) })
      .onConflictDoNothing();
    [row] = await db
      .select({ value: systemSettings.settingValue })
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, OAUTH_BUTTONS_KEY));
    logger.info('stored the OAuth login buttons of the enabled providers', {
      setting: OAUTH_BUTTONS_KEY,
      buttons: defaults.map((d) => d.name),
    });
  }
  const stored = row ? parseButtons(row.value) : [];
  if (stored === undefined) {
    logger.warn(`the setting ${OAUTH_BUTTONS_KEY} is not a JSON array; LoginConfig shows no OAuth button`);
    return { withoutButton: [...enabledProviders(config).keys()], withoutProvider: [] };
  }
  const mismatch = buttonMismatch(config, stored);
  for (const name of mismatch.withoutButton) {
    logger.warn(
      `OAuth provider "${name}" is enabled on the server but has no button in ${OAUTH_BUTTONS_KEY}; it is left out of LoginConfig`,
      { provider: name },
    );
  }
  for (const name of mismatch.withoutProvider) {
    logger.warn(
      `OAuth button "${name}" in ${OAUTH_BUTTONS_KEY} has no enabled provider on the server (OAuth__Providers__${name}__*); it is left out of LoginConfig`,
      { provider: name },
    );
  }
  return mismatch;
}
