/** A package sets how long an instance runs per creation or renewal. */
export interface PackageDefinition {
  packageid: string;
  durationDays: number;
}

/** The catalogue used when none is configured. */
export const DEFAULT_PACKAGES: readonly PackageDefinition[] = [
  { packageid: 'trial', durationDays: 3 },
  { packageid: 'monthly', durationDays: 30 },
  { packageid: 'annual', durationDays: 365 },
];

const PACKAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Checks a parsed catalogue file. Returns the packages, or every problem found, so that an operator
 * fixes the file in one go.
 */
export function parsePackageCatalogue(
  raw: unknown,
): { ok: true; packages: PackageDefinition[] } | { ok: false; problems: string[] } {
  if (!Array.isArray(raw) || raw.length === 0) {
    return { ok: false, problems: ['must be a non-empty JSON array of {"packageid", "durationDays"}'] };
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  const packages: PackageDefinition[] = [];
  raw.forEach((entry: unknown, i) => {
    const where = `entry ${i}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be an object`);
      return;
    }
    const { packageid, durationDays } = entry as Record<string, unknown>;
    if (typeof packageid !== 'string' || !PACKAGE_ID.test(packageid)) {
      problems.push(`${where}: packageid must be 1-64 letters, digits, '.', '_' or '-'`);
    } else if (seen.has(packageid)) {
      problems.push(`${where}: packageid "${packageid}" appears twice`);
    } else {
      seen.add(packageid);
    }
    if (
      typeof durationDays !== 'number' ||
      !Number.isInteger(durationDays) ||
      durationDays < 1 ||
      durationDays > 36500
    ) {
      problems.push(`${where}: durationDays must be a whole number of days from 1 to 36500`);
    }
    if (typeof packageid === 'string' && typeof durationDays === 'number') packages.push({ packageid, durationDays });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, packages };
}
