// Unit tests import server modules that read the env module; give them a harmless environment.
process.env.DATABASE_URL ??= "postgresql://unit-tests@127.0.0.1:1/never-connected";
process.env.APP_SECRET ??= "unit-test-secret-unit-test-secret-000";
