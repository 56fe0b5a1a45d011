import { Injectable } from '@nestjs/common';
import { ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { WebhookTargetPolicy } from './webhook-target-policy';

/** class-validator rule for the form of `webhookUrl` (code 0008), resolved through Nest's container
 * so that it obeys ALLOW_HTTP_WEBHOOKS. */
@ValidatorConstraint({ name: 'webhookUrlForm' })
@Injectable()
export class WebhookUrlFormConstraint implements ValidatorConstraintInterface {
  private problem: string | null = null;

  constructor(private readonly policy: WebhookTargetPolicy) {}

  validate(value: unknown): boolean {
    this.problem = typeof value === 'string' ? this.policy.formProblem(value) : null;
    return this.problem === null;
  }

  defaultMessage(_args?: ValidationArguments): string {
    return this.problem ?? 'webhookUrl must be an absolute https URL';
  }
}
