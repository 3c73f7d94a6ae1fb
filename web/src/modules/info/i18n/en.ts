import type { InfoMessages } from './zh-CN';

export const en: InfoMessages = {
  tabs: {
    profile: 'Profile',
    password: 'Change password',
  },
  profile: {
    name: 'Nickname',
    realName: 'Full name',
    phone: 'Mobile number',
    email: 'Email',
  },
  phone: {
    required: 'The mobile number cannot be empty',
    length: 'The mobile number must have 11 digits',
    format: 'The mobile number is not valid',
  },
  email: {
    format: 'The email address is not valid',
  },
  avatar: {
    choose: 'Upload a picture',
    hint: 'JPG or PNG, at most 500 KB',
    uploaded: 'Picture uploaded; save to apply it',
    failed: 'The picture could not be uploaded. Please try again.',
    badType: 'The picture must be a JPG or PNG file!',
    tooBig: 'The picture must not be larger than 500 KB!',
  },
  password: {
    old: 'Current password',
    new: 'New password',
    confirm: 'Confirm password',
    submit: 'Change password',
    changed: 'Password changed; you were signed out on other devices',
    oldRequired: 'Please enter your current password',
    newRequired: 'Please enter a new password',
    confirmRequired: 'Please enter the new password again',
    mismatch: 'The two passwords do not match',
  },
};
