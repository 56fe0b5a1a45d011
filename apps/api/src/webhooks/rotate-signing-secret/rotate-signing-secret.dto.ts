import { RequiredText } from '../../http/param-rules';

/** docs/api.md 8.5. */
export class RotateSigningSecretDto {
  @RequiredText(128) instanceid!: string;
  @RequiredText(512) token!: string;
}
