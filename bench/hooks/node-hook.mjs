#!/usr/bin/env node
// Benchmark hook written with hookline/sdk: one-shot or persistent, same code.
import { defineHook, allow, deny } from '../../dist/sdk/index.js';
await defineHook((input) => (String(input.tool_input?.command ?? '').includes('rm -rf') ? deny('no') : allow()), { concurrent: true });
