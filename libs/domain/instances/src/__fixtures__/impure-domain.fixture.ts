// Lint fixture: a domain file that breaks every purity rule. It is excluded from `npm run lint`
// and linted on purpose by tools/lint/module-boundaries.spec.ts, which expects each import refused.
import { Injectable } from '@nestjs/common';
import { EventStoreDBClient } from '@eventstore/db-client';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'crypto';
import { DatabaseSync } from 'node:sqlite';

export const impure = [Injectable, EventStoreDBClient, Database, readFileSync, randomUUID, DatabaseSync, Date.now(), new Date(), Math.random()];
export const environment = [process.env['X'], fetch, performance.now()];
