import { Injectable } from '@nestjs/common';

/** The time source of the adapters; commands receive `now` from here, never from the domain. */
@Injectable()
export class Clock {
  now(): string {
    return new Date().toISOString();
  }
}
