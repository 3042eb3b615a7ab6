// The dashboard's own tables, the one module drizzle-kit, migrations and queries import. Each
// group lives in its own file; nothing here may import above lib/db.
export * from './event-tables';
export * from './register-tables';
export * from './staff-tables';
