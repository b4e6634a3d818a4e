/** Shared data of the program tests (not a test file itself): the fields a program answers with. */
export const PROGRAM_KEYS = [
  'banner_url',
  'created_at',
  'deleted_at',
  'description',
  'edition_id',
  'ends_at',
  'id',
  'kind',
  'location',
  'max_participants',
  'min_access_level',
  'name',
  'price',
  'staff_only',
  'starts_at',
  'updated_at',
];
