import { Injectable } from '@nestjs/common';
import { ValidatorConstraint, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import { WebhookTargetPolicy } from './webhook-target-policy';

/** class-validator rule for the form of `webhookUrl` (code 0008), taken from Nest's container so
 * that it obeys ALLOW_HTTP_WEBHOOKS. */
@ValidatorConstraint({ name: 'webhookUrlForm' })
@Injectable()
export class WebhookUrlFormConstraint implements ValidatorConstraintInterface {
  constructor(private readonly policy: WebhookTargetPolicy) {}

  validate(value: unknown): boolean {
    return typeof value !== 'string' || this.policy.formProblem(value) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return (typeof args.value === 'string' && this.policy.formProblem(args.value)) || 'webhookUrl is refused';
  }
}
