// The client project runs in Node: fake-indexeddb provides IndexedDB (and IDBKeyRange) before the device store loads.
import "fake-indexeddb/auto";
