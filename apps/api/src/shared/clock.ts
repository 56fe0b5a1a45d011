import { Injectable } from '@nestjs/common';
import { isoAt } from '@gw/domain-core';

/** The time source of the adapters; commands receive `now` from here, never from the domain. */
@Injectable()
export class Clock {
  now(): string {
    return isoAt(Date.now());
  }
}
