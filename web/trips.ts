// The demo's built-in "trips" schema (Hudi quickstart style: uuid, ts, city, day, rider, driver, fare) and
// the choices the create form offers for its record key, ordering and partition fields.

/** The trips schema (Avro) given to `createTable`. */
export const TRIPS_SCHEMA = {
  type: 'record',
  name: 'trip',
  fields: [
    { name: 'uuid', type: 'string' },
    { name: 'ts', type: 'long' },
    { name: 'city', type: 'string' },
    { name: 'day', type: 'string' },
    { name: 'rider', type: 'string' },
    { name: 'driver', type: 'string' },
    { name: 'fare', type: 'double' },
  ],
};

/** A trip as the generator makes it (tables may keep a subset of the fields: their schema decides). */
export interface Trip {
  uuid: string;
  ts: number;
  city: string;
  day: string;
  rider: string;
  driver: string;
  fare: number;
}

/** Record key choices of the create form (value → fields). */
export const RECORD_KEY_CHOICES: Record<string, string[]> = { uuid: ['uuid'], 'uuid,city': ['uuid', 'city'] };
/** Ordering field choices ('' → none: commit-time ordering, the latest write wins). */
export const ORDERING_CHOICES = ['ts', ''];
/** Partition field choices (value → fields). */
export const PARTITION_CHOICES: Record<string, string[]> = { city: ['city'], 'city,day': ['city', 'day'], day: ['day'], '': [] };

/** The cities trips happen in (the partitions of a `city`-partitioned table), most popular first. */
export const CITIES = ['san_francisco', 'sao_paulo', 'chennai', 'amsterdam', 'tokyo', 'lagos', 'oslo', 'lima'];
