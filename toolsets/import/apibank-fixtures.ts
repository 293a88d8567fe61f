/** API-Bank's databases as fixtures: the layout lives with the API-Bank behaviour that reads it (`toolsets/apibank`). */
export { APIBANK_DATABASE_LAYOUT, databaseCollection, databaseFixtures } from "../apibank/apibank-db.js";
