// Test-only preload (node --expose-gc --import ./test/helpers/gc-pressure.mjs): a full garbage
// collection every 200 ms (five a second), so statements, iterators and connections are collected
// while the server uses them, and at its exit, as native drivers have crashed doing.
if (typeof globalThis.gc === 'function') setInterval(() => globalThis.gc(), 200).unref();
