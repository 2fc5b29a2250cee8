// The client project runs in Node: fake-indexeddb provides IndexedDB (and IDBKeyRange) before Dexie loads.
import "fake-indexeddb/auto";
